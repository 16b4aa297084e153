/**
 * The visits' tally (migration 0028): the count statement keeps, for every arrival, the day's and the month's views
 * and visitors of the site and of each source field's value, always the sums of the site's rollups (page '*'); the
 * console reads any range from it as the rollups would have answered; the purge takes it back with the rollups.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createVisitStore } from "../../../src/server/visits";
import { createVisitHandler } from "../../../src/server/visits/handler";
import { backends, useBackend } from "../../support/backends";
import { fakeContext } from "../../support/helpers";

const AGENT = (n: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:14${n}.0) Gecko/20100101 Firefox/14${n}.0`;

/** What the tally must be: the '*' rollups summed by day and by month, for the site and each field's value. */
const FROM_ROLLUPS = `SELECT s.span, f.field, s.day::text AS day, f.value, sum(r.views)::int AS views,
    sum(r.visitors)::int AS visitors
  FROM visit_rollup r
  CROSS JOIN LATERAL (VALUES ('day', r.day), ('month', date_trunc('month', r.day::timestamp)::date)) AS s(span, day)
  CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', r.source), ('medium', r.medium), ('campaign', r.campaign),
    ('referrer', r.referrer), ('share', NULL)) AS f(field, value)
  WHERE r.page = '*' AND (f.field <> 'share' OR r.by_share_link)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4 NULLS FIRST`;
const TALLY = `SELECT span, field, day::text AS day, value, views::int, visitors::int FROM visit_tally
  ORDER BY 1, 2, 3, 4 NULLS FIRST`;

/** The funnel's visitors as the rollups answered before the tally: '*' rows of the range, summed by field. */
const BY_FIELD_FROM_ROLLUPS = `WITH r AS (SELECT * FROM visit_rollup WHERE page = '*' AND day <= $1::date
    AND ($2::int IS NULL OR day > $1::date - $2::int))
  SELECT 'all' AS field, NULL AS value, sum(views)::int AS views, sum(visitors)::int AS visitors FROM r HAVING count(*) > 0
  UNION ALL SELECT 'source', source, sum(views), sum(visitors) FROM r GROUP BY source
  UNION ALL SELECT 'medium', medium, sum(views), sum(visitors) FROM r GROUP BY medium
  UNION ALL SELECT 'campaign', campaign, sum(views), sum(visitors) FROM r GROUP BY campaign
  UNION ALL SELECT 'referrer', referrer, sum(views), sum(visitors) FROM r GROUP BY referrer
  UNION ALL SELECT 'share', NULL, sum(views), sum(visitors) FROM r WHERE by_share_link HAVING count(*) > 0`;

/** "field value views visitors", a row of the tally or a group the store read ("-": no value). */
const line = (row: object) => {
  const { field, value, views, visitors } = row as Record<string, unknown>;
  return [field, value ?? "-", views, visitors].map(String).join(" ");
};

describe.each(backends("visit_tally"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  let clock = new Date("2026-11-30T10:00:00Z");
  const config = readConfig({ RATE_LIMIT_MAX: "1000" });
  const handler = createVisitHandler({ store: async () => backend.store, config: () => config, now: () => clock });
  const beacon = (query: string, referrer: string, n: number, page = "/") =>
    handler(
      new Request("http://localhost/api/visit", {
        method: "POST",
        headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": AGENT(n) },
        body: JSON.stringify({ page, query, referrer }),
      }),
      fakeContext(`192.0.2.${n}`),
    );
  const query = <Row extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    backend.store.db.query<Row>(sql, params);

  afterEach(async () => {
    for (const table of ["visit_rollup", "visit_tally", "visit_seen", "visit_salt"])
      await query(`DELETE FROM ${table}`);
  });

  it.skipIf(!available)("keeps each day's and month's sums of the site's rollups as views are counted", async () => {
    await beacon("", "https://news.example.org", 1);
    await beacon("", "https://news.example.org", 1); // a reload: a view, not a visitor
    await beacon("", "http://localhost", 1, "/join"); // a step within the site: no arrival
    await beacon("?utm_source=newsletter&utm_medium=email&utm_campaign=spring", "", 2);
    await beacon("?via=abcdefghjk", "", 3);
    clock = new Date("2026-12-01T09:00:00Z");
    // Ten arrivals at once: one row each key, none lost to another.
    await Promise.all([4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((n) => beacon("?utm_source=newsletter", "", n)));
    const tally = await query(TALLY);
    const day = (d: string) => tally.filter((r) => r["span"] === "day" && r["day"] === d).map(line);
    expect(day("2026-11-30")).toEqual([
      "all - 4 3",
      "campaign - 3 2",
      "campaign spring 1 1",
      "medium - 3 2",
      "medium email 1 1",
      "referrer - 2 2",
      "referrer news.example.org 2 1",
      "share - 1 1",
      "source - 3 2",
      "source newsletter 1 1",
    ]);
    expect(day("2026-12-01")).toEqual([
      "all - 10 10",
      "campaign - 10 10",
      "medium - 10 10",
      "referrer - 10 10",
      "source newsletter 10 10",
    ]);
    // One day in each month: each month's rows are its day's.
    const months = tally.filter((r) => r["span"] === "month");
    expect(months.map((r) => `${r["day"]} ${line(r)}`)).toEqual(
      tally.filter((r) => r["span"] === "day").map((r) => `${String(r["day"]).slice(0, 8)}01 ${line(r)}`),
    );
    expect(tally).toEqual(await query(FROM_ROLLUPS));
    // Each count committed without waiting for the disk, that transaction only: the connection is as it was.
    expect(await query("SHOW synchronous_commit")).toEqual([{ synchronous_commit: "on" }]);
    // The migration's refill makes the same tally from the rollups.
    await query("SELECT visit_tally_refill()");
    expect(await query(TALLY)).toEqual(tally);
  });

  it.skipIf(!available)("answers any range as the rollups did: whole months, and the days at its ends", async () => {
    // 120 days to 2026-12-10, three sources, some by share link, a different count every day.
    await query(`INSERT INTO visit_rollup (day, page, source, medium, campaign, referrer, by_share_link, views, visitors)
      SELECT '2026-12-10'::date - g, p.page, (ARRAY['hn', NULL, 'newsletter'])[1 + g % 3], NULL,
        CASE WHEN g % 4 = 0 THEN 'spring' END, CASE WHEN g % 5 = 0 THEN 't.co' END, g % 7 = 0, 2 + g % 9, 1 + g % 6
      FROM generate_series(0, 119) AS g CROSS JOIN (VALUES ('*'), ('/')) AS p(page)`);
    await query("SELECT visit_tally_refill()");
    const visits = createVisitStore(backend.store.db);
    const sorted = (rows: object[]) => rows.map(line).sort();
    for (const [day, days] of [
      ["2026-12-10", 30],
      ["2026-12-10", 90],
      ["2026-12-10", null],
      ["2026-12-10", 1],
      ["2026-11-20", 30], // ends mid-month, with days after it in the tally
      ["2026-10-31", 16],
      ["2026-10-15", 45],
      ["2026-08-01", null],
    ] as const) {
      const expected = sorted(await query(BY_FIELD_FROM_ROLLUPS, [day, days]));
      expect(sorted(await visits.byField(day, days)), `${day}, ${days ?? "all"} days`).toEqual(expected);
    }
    // The all-time row, by hand: views 2 + g % 9 and visitors 1 + g % 6 over g = 0..119.
    const all = (await visits.byField("2026-12-10", null)).find((g) => g.field === "all");
    expect(all).toEqual({ field: "all", value: null, views: 711, visitors: 420 });
    expect([...(await visits.perDay("2026-12-10", 3))]).toEqual([
      ["2026-12-08", 3],
      ["2026-12-09", 2],
      ["2026-12-10", 1],
    ]);
  });

  it.skipIf(!available)("purges the tally's days with the rollups, and each month down to the days left", async () => {
    await query(`INSERT INTO visit_rollup VALUES ('2024-10-31', '*', NULL, NULL, NULL, NULL, false, 5, 3),
      ('2024-11-10', '*', 'hn', NULL, NULL, NULL, false, 4, 2), ('2024-11-15', '*', 'hn', NULL, NULL, NULL, true, 6, 5),
      ('2024-11-20', '*', NULL, NULL, NULL, NULL, false, 1, 1), ('2024-12-02', '*', NULL, NULL, NULL, NULL, false, 7, 7)`);
    await query("SELECT visit_tally_refill()");
    const visits = createVisitStore(backend.store.db);
    const months = async () =>
      (await query(TALLY))
        .filter((r) => r["span"] === "month")
        .map((r) => `${r["day"]} ${line(r)}`)
        .sort();
    // 25 months before 2026-12-15: 2024-11-15 is kept; October goes whole, November keeps its last two days.
    expect(await visits.purge("2026-12-15")).toEqual({ rollups: 2, salts: 0, marks: 0, tally: 15 });
    expect(await query(TALLY)).toEqual(await query(FROM_ROLLUPS));
    expect(await months()).toEqual([
      "2024-11-01 all - 7 6",
      "2024-11-01 campaign - 7 6",
      "2024-11-01 medium - 7 6",
      "2024-11-01 referrer - 7 6",
      "2024-11-01 share - 6 5",
      "2024-11-01 source - 1 1",
      "2024-11-01 source hn 6 5",
      "2024-12-01 all - 7 7",
      "2024-12-01 campaign - 7 7",
      "2024-12-01 medium - 7 7",
      "2024-12-01 referrer - 7 7",
      "2024-12-01 source - 7 7",
    ]);
    // Ten days on, November has no day left: its rows go, none is left at 0.
    expect((await visits.purge("2026-12-25")).tally).toBe(18);
    expect(await query(TALLY)).toEqual(await query(FROM_ROLLUPS));
    expect((await months()).every((row) => row.startsWith("2024-12-01"))).toBe(true);
  });
});
