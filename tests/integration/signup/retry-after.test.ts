/**
 * When a refused client would be accepted (Retry-After), decided by the allowance's own statement beside its
 * verdict (src/server/store/allowance.ts: RETRY), on the embedded PGlite and on PostgreSQL over TCP. Each case seeds
 * this window's and the previous window's counts, then asks the store without counting (peek).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../src/server/app/store";
import { createPgDb } from "../../../src/server/db/pg";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { migratedDataDir } from "../../support/helpers";
import { createMigratedDatabase, postgresReachable } from "../../support/postgres";

const reachable = await postgresReachable();
const WINDOW_MS = 600_000;

/** The 600-second window that started at 2026-11-25T08:00:00Z, `elapsed` seconds in. */
function windowAt(elapsed: number) {
  const start = Date.UTC(2026, 10, 25, 8, 0, 0);
  return { start: new Date(start), windowMs: WINDOW_MS, previousWeight: 1 - (elapsed * 1000) / WINDOW_MS };
}

const CASES: Array<[string, number, number, number, number, number?]> = [
  // [case, elapsed s, attempts here, previous window, expected wait s, allowance (2)]
  ["3 here, none before: the next window, once 3 × weight ≤ 1 (two thirds in)", 100, 3, 0, 900],
  ["the same at the window's last second", 599, 3, 0, 401],
  ["2 here: the retry makes 3; next window, once 1 + 2 × weight ≤ 2 (half way in)", 100, 2, 0, 800],
  ["1 here, 4 before: not here (4 × weight ≤ 0 only at the end); next window at once", 100, 1, 4, 500],
  ["0 here, 4 before: here, once 1 + 4 × (1 − t/600) ≤ 2, at t = 450", 100, 0, 4, 350],
  ["10 here: next window, once 1 + 10 × weight ≤ 2 (nine tenths in)", 100, 10, 0, 1040],
  ["allowance 1, 1 here: two windows on, when only the retry counts", 100, 1, 0, 1100, 1],
  ["never less than a second: accepted at 450 s, asked at 449.9 s", 449.9, 0, 4, 1],
];

function retryCases(name: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>) {
  describe(`Retry-After from the allowance's statement, ${name} (allowance 2 per 600 s)`, () => {
    let opened: { store: Store; close: () => Promise<void> };
    beforeAll(async () => {
      opened = await open();
    }, 60_000);
    afterAll(() => opened?.close());

    it.each(CASES)("%s", async (label, elapsed, attempts, previous, expected, allowance = 2) => {
      const { store } = opened;
      const key = `retry:${label}`;
      const window = windowAt(elapsed);
      const seed = "INSERT INTO waitlist_rate_limit (client_key, window_start, attempts) VALUES ($1, $2, $3)";
      if (attempts > 0) await store.db.query(seed, [key, window.start.toISOString(), attempts]);
      const before = new Date(window.start.getTime() - WINDOW_MS).toISOString();
      if (previous > 0) await store.db.query(seed, [key, before, previous]);
      expect((await store.peek(key, window, allowance)).retryAfter).toBe(expected);
    });
  });
}

retryCases("on embedded PGlite", async () => {
  const db = await openPgliteDb(migratedDataDir("retry-after-"));
  return { store: createStore(db), close: () => db.close() };
});

describe.runIf(reachable || process.env["REQUIRE_POSTGRES"] === "1")("PostgreSQL", () => {
  retryCases("on PostgreSQL over TCP", async () => {
    const database = await createMigratedDatabase("retry_after");
    const db = createPgDb(database.url);
    return {
      store: createStore(db),
      close: async () => {
        await db.close();
        await database.drop();
      },
    };
  });
});
