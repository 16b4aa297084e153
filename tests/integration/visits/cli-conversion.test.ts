/** `npm run waitlist -- count` ends with the console's conversion by source: visitors, sign-ups, their share. */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { conversionBySource } from "../../../scripts/lib/waitlist-commands";
import { createStore, type Store } from "../../../src/server/app/store";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { migratedDataDir } from "../../support/helpers";

let store: Store;
beforeAll(async () => {
  store = createStore(await openPgliteDb(migratedDataDir("visits-cli-")));
}, 60_000);
afterAll(() => store?.close());

it("prints visitors, sign-ups and conversion by source for the last 30 days", async () => {
  const today = "(now() AT TIME ZONE 'UTC')::date";
  await store.db.query(`INSERT INTO visit_rollup VALUES
    (${today}, '*', 'newsletter', NULL, NULL, NULL, false, 9, 8),
    (${today} - 1, '*', NULL, NULL, NULL, NULL, false, 5, 4),
    (${today} - 40, '*', 'old', NULL, NULL, NULL, false, 50, 50),
    (${today}, '/', 'newsletter', NULL, NULL, NULL, false, 9, 8)`);
  // Rollups written by hand: their tally made as migration 0028 made it from the rollups there.
  await store.db.query("SELECT visit_tally_refill()");
  await store.db.query(
    `INSERT INTO waitlist (email, status, source) VALUES ('a@example.com', 'confirmed', 'newsletter'),
      ('b@example.com', 'pending', 'newsletter'), ('c@example.com', 'pending', 'forum')`,
  );
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: string) => lines.push(line));
  try {
    await conversionBySource(store, new Date().toISOString().slice(0, 10));
  } finally {
    vi.restoreAllMocks();
  }
  expect(lines).toEqual([
    "\nConversion by source, last 30 days (UTC): visitors, signed up, share",
    "  Everyone                       12         3    25%",
    "  newsletter                      8         2    25%",
    "  (none)                          4         0     0%",
    "  forum                           0         1      –",
  ]);
});
