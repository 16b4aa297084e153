/**
 * The scheduled purge (netlify/functions/purge-pending.ts) as Netlify runs it, on the process's store: off
 * until PURGE_PENDING_AFTER_DAYS is set, then it deletes only pending sign-ups untouched for that long.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import purge, { config as schedule } from "../../../netlify/functions/purge-pending";
import { getStore } from "../../../src/server/app/instance";
import { createAuditLog } from "../../../src/server/audit";
import { resetConfig } from "../../../src/server/config";
import { releaseEmbeddedStore, useEmbeddedStore } from "../../support/helpers";

beforeAll(async () => {
  await useEmbeddedStore("purge-", 10);
  const store = await getStore();
  await store.add({ name: null, email: "old-pending@example.com", message: null }, "pending");
  await store.add({ name: null, email: "new-pending@example.com", message: null }, "pending");
  await store.add({ name: null, email: "old-confirmed@example.com", message: null }, "confirmed");
  await store.db.query("UPDATE waitlist SET created_at = now() - interval '20 days' WHERE email LIKE 'old-%'");
}, 60_000);
afterAll(releaseEmbeddedStore);

const emails = async () => (await (await getStore()).list()).map((entry) => entry.email).sort();

it("is scheduled daily and does nothing while PURGE_PENDING_AFTER_DAYS is unset", async () => {
  expect(schedule.schedule).toBe("@daily");
  expect((await purge()).status).toBe(204);
  expect(await emails()).toHaveLength(3);
});

it("with PURGE_PENDING_AFTER_DAYS=14, deletes the old pending sign-up and nothing else", async () => {
  vi.stubEnv("PURGE_PENDING_AFTER_DAYS", "14");
  resetConfig();
  expect((await purge()).status).toBe(204);
  expect(await emails()).toEqual(["new-pending@example.com", "old-confirmed@example.com"]);
  // In the audit log, by the schedule.
  const [entry] = await createAuditLog((await getStore()).db).page(1, null);
  expect([entry?.actor, entry?.action, entry?.details]).toEqual([
    "scheduled",
    "purge-pending",
    { purged: 1, olderThanHours: 336 },
  ]);
});

it("refuses a PURGE_PENDING_AFTER_DAYS below 7 (a confirmation link's life): deletes nothing, logs an error", async () => {
  const store = await getStore();
  await store.add({ name: null, email: "week-old@example.com", message: null }, "pending");
  await store.db.query(
    "UPDATE waitlist SET created_at = now() - interval '3 days' WHERE email = 'week-old@example.com'",
  );
  vi.stubEnv("PURGE_PENDING_AFTER_DAYS", "2");
  resetConfig();
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    expect((await purge()).status).toBe(204);
    expect(errors.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
      expect.objectContaining({ level: "error", event: "waitlist.purge_refused", days: 2, minimum: 7 }),
    ]);
  } finally {
    errors.mockRestore();
  }
  expect(await emails()).toContain("week-old@example.com");
});

it("deletes visits' rollups and their tally older than 25 months, and every salt and mark from before yesterday", async () => {
  const store = await getStore();
  const today = "(now() AT TIME ZONE 'UTC')::date";
  await store.db.query(`INSERT INTO visit_rollup VALUES
    ((${today} - interval '25 months' - interval '1 day')::date, '/', NULL, NULL, NULL, NULL, false, 9, 4),
    ((${today} - interval '25 months' - interval '1 day')::date, '*', NULL, NULL, NULL, NULL, false, 9, 4),
    ((${today} - interval '25 months' + interval '1 day')::date, '/', NULL, NULL, NULL, NULL, false, 7, 3),
    ((${today} - interval '25 months' + interval '1 day')::date, '*', NULL, NULL, NULL, NULL, false, 7, 3)`);
  await store.db.query("SELECT visit_tally_refill()");
  await store.db.query(`INSERT INTO visit_salt VALUES (${today} - 2, decode(repeat('ab', 32), 'hex')),
    (${today} - 1, decode(repeat('cd', 32), 'hex'))`);
  expect((await purge()).status).toBe(204);
  const left = await store.db.query<{ views: number }>("SELECT views::int FROM visit_rollup");
  expect(left).toEqual([{ views: 7 }, { views: 7 }]);
  expect(await store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM visit_salt")).toEqual([{ n: 1 }]);
  // The tally keeps the day left and its month only (whether or not the two days were in one month), and is what
  // the rollups left make of it.
  const tally = () =>
    store.db.query<Record<string, unknown>>(
      "SELECT span, field, day::text, value, views::int, visitors::int FROM visit_tally ORDER BY span, field",
    );
  const kept = await tally();
  expect(kept.map((row) => [row["span"], row["field"], row["views"], row["visitors"]])).toEqual(
    ["day", "month"].flatMap((span) =>
      ["all", "campaign", "medium", "referrer", "source"].map((field) => [span, field, 7, 3]),
    ),
  );
  await store.db.query("SELECT visit_tally_refill()");
  expect(await tally()).toEqual(kept);
});
