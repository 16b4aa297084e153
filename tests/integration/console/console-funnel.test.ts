/**
 * The funnel's tally (migration 0018) on an embedded Postgres: kept exact by the database itself through every
 * change a row goes through (a sign-up, one by a share link in the sign-up's own statement, confirming, inviting,
 * joining, a removal that takes its referral row with it, a purge of many at once), read as the funnel of each
 * range, and against a count of the list itself after all of it. The CSV of the funnel: tests/e2e and console.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ATTRIBUTION } from "../../../src/lib/waitlist/attribution";
import { createStore, type Store } from "../../../src/server/app/store";
import { createFunnelStore, type FunnelRow } from "../../../src/server/console/overview/funnel-store";
import { createOverviewStore } from "../../../src/server/console/store";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { migratedDataDir } from "../../support/helpers";

let store: Store;

beforeAll(async () => {
  store = createStore(await openPgliteDb(migratedDataDir("funnel-")));
});
afterAll(async () => {
  await store?.close();
});

/** The tally's rows for one field, as [value, status, count], in order. */
const tally = async (field: string) =>
  (
    await store.db.query<{ value: string | null; status: string; count: number }>(
      `SELECT value, status, sum(count)::int AS count FROM waitlist_funnel_tally WHERE field = $1
       GROUP BY value, status HAVING sum(count) <> 0 ORDER BY value NULLS LAST, status`,
      [field],
    )
  ).map((r) => [r.value, r.status, r.count]);

/** The same, counted from the list itself: what the tally must always equal. */
const counted = async (field: string) =>
  (
    await store.db.query<{ value: string | null; status: string; count: number }>(
      field === "share"
        ? `SELECT NULL AS value, w.status, count(*)::int AS count FROM waitlist w
           WHERE EXISTS (SELECT 1 FROM waitlist_referral r WHERE r.referred_id = w.id) GROUP BY 2 ORDER BY 2`
        : `SELECT ${field === "all" ? "NULL" : field} AS value, status, count(*)::int AS count FROM waitlist
           GROUP BY 1, 2 ORDER BY 1 NULLS LAST, 2`,
    )
  ).map((r) => [r.value, r.status, r.count]);

const add = (email: string, source: string | null, referrerId?: number) =>
  store.add(
    {
      name: null,
      email,
      message: null,
      attribution: { ...NO_ATTRIBUTION, source, medium: source ? "social" : null },
      ...(referrerId ? { referral: { referrerId, outcome: "pending" as const } } : {}),
    },
    "pending",
  );
const idOf = async (email: string) =>
  Number((await store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = $1", [email]))[0]?.id);
const setStatus = (status: string, emails: string[]) =>
  store.db.query("UPDATE waitlist SET status = $1 WHERE email = ANY($2::text[])", [status, emails]);

describe("the funnel's tally", () => {
  it("stays exact through sign-up, share link, confirm, invite, join and removal", async () => {
    await add("ann@example.com", "hn");
    await add("bob@example.com", "hn");
    await add("cat@example.com", "newsletter");
    await add("dee@example.com", null);
    const ann = await idOf("ann@example.com");
    // Two came by Ann's share link: their referral row is written in the sign-up's own statement.
    await add("eve@example.com", "hn", ann);
    await add("fay@example.com", null, ann);
    expect(await tally("all")).toEqual([[null, "pending", 6]]);
    expect(await tally("source")).toEqual([
      ["hn", "pending", 3],
      ["newsletter", "pending", 1],
      [null, "pending", 2],
    ]);
    expect(await tally("share")).toEqual([[null, "pending", 2]]);

    await setStatus("confirmed", ["ann@example.com", "bob@example.com", "cat@example.com", "eve@example.com"]);
    await setStatus("invited", ["ann@example.com", "eve@example.com"]);
    await setStatus("joined", ["eve@example.com"]);
    expect(await tally("source")).toEqual([
      ["hn", "confirmed", 1],
      ["hn", "invited", 1],
      ["hn", "joined", 1],
      ["newsletter", "confirmed", 1],
      [null, "pending", 2],
    ]);
    expect(await tally("medium")).toEqual([
      ["social", "confirmed", 2],
      ["social", "invited", 1],
      ["social", "joined", 1],
      [null, "pending", 2],
    ]);
    expect(await tally("share")).toEqual([
      [null, "joined", 1],
      [null, "pending", 1],
    ]);

    // Eve leaves: her referral row goes with her, and she leaves every count, the share link's too.
    expect(await store.erase("eve@example.com")).toBe(true);
    expect(await tally("share")).toEqual([[null, "pending", 1]]);
    expect(await tally("all")).toEqual([
      [null, "confirmed", 2],
      [null, "invited", 1],
      [null, "pending", 2],
    ]);
    // A purge of many at once (a statement of two rows), one of them come by a share link.
    await store.db.query("DELETE FROM waitlist WHERE status = 'pending'");
    expect(await tally("share")).toEqual([]);
    expect(await tally("all")).toEqual([
      [null, "confirmed", 2],
      [null, "invited", 1],
    ]);
    for (const field of ["all", "source", "medium", "campaign", "referrer", "share"]) {
      expect(await tally(field), field).toEqual(await counted(field));
    }
  });

  it("a referral row written after the sign-up (as the bench and older rows have it) counts its person too", async () => {
    await add("gus@example.com", "hn");
    const gus = await idOf("gus@example.com");
    await store.db.query("INSERT INTO waitlist_referral (referred_id, referrer_id) VALUES ($1, $2)", [
      gus,
      await idOf("ann@example.com"),
    ]);
    expect(await tally("share")).toEqual([[null, "pending", 1]]);
    expect(await tally("share")).toEqual(await counted("share"));
  });
});

describe("the funnel read from it", () => {
  const row = (value: string | null, signedUp: number, confirmed: number, invited: number, joined: number) =>
    ({ value, signedUp, confirmed, invited, joined }) satisfies FunnelRow;

  it("counts each step by sign-up day: 30 days, 90 days, all time", async () => {
    await store.db.query("DELETE FROM waitlist");
    await store.db.query(
      `INSERT INTO waitlist (email, status, source, created_at) VALUES
        ('a@example.com', 'joined', 'hn', now()), ('b@example.com', 'invited', 'hn', now() - interval '40 days'),
        ('c@example.com', 'confirmed', 'hn', now() - interval '100 days'), ('d@example.com', 'pending', NULL, now())`,
    );
    const funnels = createFunnelStore(store.db);
    const thirty = await funnels.funnel("30");
    expect(thirty.everyone).toEqual(row(null, 2, 1, 1, 1));
    expect(thirty.fields.source).toEqual([row("hn", 1, 1, 1, 1), row(null, 1, 0, 0, 0)]);
    expect((await funnels.funnel("90")).fields.source).toEqual([row("hn", 2, 2, 2, 1), row(null, 1, 0, 0, 0)]);
    const all = await funnels.funnel("all");
    expect(all.everyone).toEqual(row(null, 4, 3, 2, 1));
    expect(all.fields.source).toEqual([row("hn", 3, 3, 2, 1), row(null, 1, 0, 0, 0)]);
    expect(all.fields.share).toEqual([]);
  });

  it("the chart's days by status and the running total from before them", async () => {
    const days = await createOverviewStore(store.db).chart(30);
    expect(days).toHaveLength(30);
    expect(days.slice(-1)[0]?.counts).toEqual({ pending: 1, confirmed: 0, invited: 0, joined: 1 });
    // Two signed up before these 30 days; both of today's are on top.
    expect(days[0]?.running).toBe(2);
    expect(days.slice(-1)[0]?.running).toBe(4);
    expect(days.reduce((sum, day) => sum + day.total, 0)).toBe(2);
  });
});
