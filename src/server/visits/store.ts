/**
 * The visits' SQL: the day's salt (made at random, read, and the salts and marks of days before yesterday deleted in
 * the same statement), one view counted in one statement (its rollups and, for an arrival, the tally of migration
 * 0028), the purge of old rollups and tally rows, and the reads of the console and the CLI, from the tally only. Every
 * day is a UTC date the handler passes, so a test's clock decides it.
 */
import type { Db } from "../db/types";
import type { VisitKey } from "./rules";

/** Page '*' in the rollups: the site as a whole (arrivals, and the day's distinct visitors of a combination). */
export const SITE_PAGE = "*";

/** How long rollups are kept: 25 months (CNIL's longest for audience measurement), then the daily purge deletes them. */
export const ROLLUP_MONTHS = 25;

/** The first day of the month of `day` (a date), and of the month after it. */
const month = (day: string) => `date_trunc('month', ${day}::timestamp)::date`;
const nextMonth = (day: string) => `(date_trunc('month', ${day}::timestamp) + interval '1 month')::date`;
/** The tally's fields, all read at once (the key leads with them). */
const FIELDS = "ARRAY['all', 'source', 'medium', 'campaign', 'referrer', 'share']";

export const VISITS_SQL = {
  /**
   * Day $1's salt, made from $2 (32 random bytes, hex) unless the day has one; salts and marks older than yesterday
   * go first, so none outlives 48 hours by more than the first view of the day after it.
   */
  salt: `WITH gone AS (DELETE FROM visit_salt WHERE day < $1::date - 1),
    marks_gone AS (DELETE FROM visit_seen WHERE day < $1::date - 1),
    made AS (INSERT INTO visit_salt (day, salt) VALUES ($1::date, decode($2, 'hex'))
      ON CONFLICT (day) DO NOTHING RETURNING salt)
    SELECT encode(salt, 'hex') AS salt FROM made
    UNION ALL SELECT encode(salt, 'hex') FROM visit_salt WHERE day = $1::date
    LIMIT 1`,
  /**
   * One view on day $1, counted under each page of $3 (its own, and '*' when it arrived from elsewhere) with the key
   * $4–$8; $2 holds each one's mark (hex, in the same order). A mark new today is a new visitor of that rollup. An
   * arrival is added to the tally too (migration 0028): the day's and the month's rows of the site and of each source
   * field's value. Rows are locked in one order (rollups by page, then the tally by its key), so two counts never
   * wait on each other in a cycle. It commits without waiting for the disk (synchronous_commit off for its own
   * transaction): every arrival updates the day's site-wide rows, so each count held them until the flush and the
   * counts queued one flush each (halving the counts a second at 10 clients); a crash may now lose the last
   * fraction of a second's views, never a part of one.
   */
  count: `WITH seen AS (
      INSERT INTO visit_seen (day, mark) SELECT $1::date, decode(m, 'hex') FROM unnest($2::text[]) AS m
      ON CONFLICT DO NOTHING RETURNING mark),
    k AS (SELECT page, (SELECT count(*) FROM seen WHERE mark = decode(k.mark, 'hex')) AS visitors
      FROM unnest($3::text[], $2::text[]) AS k(page, mark)),
    counted AS (
      INSERT INTO visit_rollup AS r (day, page, source, medium, campaign, referrer, by_share_link, views, visitors)
      SELECT $1::date, k.page, $4, $5, $6, $7, $8, 1, k.visitors FROM k ORDER BY k.page
      ON CONFLICT ON CONSTRAINT visit_rollup_key
      DO UPDATE SET views = r.views + 1, visitors = r.visitors + excluded.visitors
      RETURNING 1),
    tallied AS (
      INSERT INTO visit_tally AS t (span, field, day, value, views, visitors)
      SELECT s.span, f.field, s.day, f.value, 1, k.visitors FROM k
      CROSS JOIN (VALUES ('day', $1::date), ('month', date_trunc('month', $1::date::timestamp)::date)) AS s(span, day)
      CROSS JOIN (VALUES ('all', NULL), ('source', $4::text), ('medium', $5::text), ('campaign', $6::text),
        ('referrer', $7::text), ('share', NULL)) AS f(field, value)
      WHERE k.page = '*' AND (f.field <> 'share' OR $8::boolean)
      ORDER BY s.span, f.field, s.day, f.value
      ON CONFLICT ON CONSTRAINT visit_tally_key
      DO UPDATE SET views = t.views + 1, visitors = t.visitors + excluded.visitors
      RETURNING 1)
    SELECT (SELECT count(*) FROM counted)::int AS rollups, (SELECT count(*) FROM seen)::int AS new_visitors,
      (SELECT count(*) FROM tallied)::int AS tallied,
      set_config('synchronous_commit', 'off', true) AS commit_without_waiting`,
  /**
   * Rollups and their tally's days older than $1 months before day $2 (the cut), salts and marks older than the day
   * before it: deleted. The tally's months before the cut's month go whole; in the cut's month, each row loses the
   * days deleted, and goes when none of its views is left.
   */
  purge: `WITH salts AS (DELETE FROM visit_salt WHERE day < $2::date - 1 RETURNING 1),
    marks AS (DELETE FROM visit_seen WHERE day < $2::date - 1 RETURNING 1),
    cut AS (SELECT day, ${month("day")} AS month
      FROM (SELECT ($2::date - make_interval(months => $1::int))::date AS day) c),
    rollups AS (DELETE FROM visit_rollup WHERE day < (SELECT day FROM cut) RETURNING 1),
    days AS (DELETE FROM visit_tally WHERE span = 'day' AND day < (SELECT day FROM cut)
      RETURNING field, day, value, views, visitors),
    gone AS (SELECT field, value, sum(views) AS views, sum(visitors) AS visitors FROM days
      WHERE day >= (SELECT month FROM cut) GROUP BY field, value),
    months AS (DELETE FROM visit_tally t WHERE t.span = 'month' AND (t.day < (SELECT month FROM cut)
      OR t.day = (SELECT month FROM cut) AND EXISTS (SELECT 1 FROM gone g
        WHERE g.field = t.field AND g.value IS NOT DISTINCT FROM t.value AND g.views = t.views))
      RETURNING 1),
    part AS (UPDATE visit_tally t SET views = t.views - g.views, visitors = t.visitors - g.visitors FROM gone g
      WHERE t.span = 'month' AND t.day = (SELECT month FROM cut) AND g.field = t.field
        AND g.value IS NOT DISTINCT FROM t.value AND g.views <> t.views
      RETURNING 1)
    SELECT (SELECT count(*) FROM rollups)::int AS rollups, (SELECT count(*) FROM salts)::int AS salts,
      (SELECT count(*) FROM marks)::int AS marks,
      ((SELECT count(*) FROM days) + (SELECT count(*) FROM months))::int AS tally`,
  /**
   * Arrivals (views) and the day's visitors at the site of the $2 days to day $1 (all days: $2 null), in all and by
   * each source field and value, and for the share links: what the funnel starts at. Read from the tally: the whole
   * months from the one nearest the range's first day, plus the days from that first day to it (or less the days
   * from it to that first day), less any day after day $1 in its month. At most 15 days' rows and the months'.
   */
  byField: `WITH b AS (SELECT $1::date AS last_day, $1::date - $2::int + 1 AS first_day),
    c AS (SELECT last_day, first_day, CASE WHEN first_day - ${month("first_day")} <= ${nextMonth("first_day")} - first_day
        THEN ${month("first_day")} ELSE ${nextMonth("first_day")} END AS cut FROM b),
    x AS (
      SELECT 1 AS sign, t.* FROM visit_tally t WHERE t.span = 'month' AND t.field = ANY(${FIELDS})
        AND t.day <= (SELECT last_day FROM c) AND t.day >= coalesce((SELECT cut FROM c), '-infinity')
      UNION ALL
      SELECT 1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(${FIELDS})
        AND t.day >= (SELECT first_day FROM c) AND t.day < (SELECT cut FROM c)
      UNION ALL
      SELECT -1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(${FIELDS})
        AND t.day >= (SELECT cut FROM c) AND t.day < (SELECT first_day FROM c)
      UNION ALL
      SELECT -1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(${FIELDS})
        AND t.day > (SELECT last_day FROM c) AND t.day < (SELECT ${nextMonth("last_day")} FROM c))
    SELECT field, value, sum(sign * views)::bigint AS views, sum(sign * visitors)::bigint AS visitors FROM x
    GROUP BY field, value HAVING sum(sign * views) <> 0`,
  /** The site's visitors per day, the $2 days to day $1. */
  perDay: `SELECT day::text AS day, visitors FROM visit_tally
    WHERE span = 'day' AND field = 'all' AND day <= $1::date AND day > $1::date - $2::int ORDER BY day`,
} as const;

export type VisitField = "all" | "source" | "medium" | "campaign" | "referrer" | "share";
export interface VisitGroup {
  field: VisitField;
  value: string | null;
  views: number;
  visitors: number;
}

export function createVisitStore(db: Db) {
  return {
    /** Day `day`'s salt (hex): `fresh` when the day has none yet. */
    async salt(day: string, fresh: string): Promise<string> {
      const [row] = await db.query<{ salt: string }>(VISITS_SQL.salt, [day, fresh]);
      // Two first views at once: the other's salt was committed after this statement began; it is there now.
      if (row) return row.salt;
      const [again] = await db.query<{ salt: string }>(VISITS_SQL.salt, [day, fresh]);
      if (!again) throw new Error("The day's salt could not be read.");
      return again.salt;
    },
    async count(day: string, marks: { page: string; mark: string }[], key: VisitKey) {
      const [row] = await db.query<{ rollups: number; new_visitors: number }>(VISITS_SQL.count, [
        day,
        marks.map((m) => m.mark),
        marks.map((m) => m.page),
        key.source,
        key.medium,
        key.campaign,
        key.referrer,
        key.share,
      ]);
      return { rollups: Number(row?.rollups ?? 0), newVisitors: Number(row?.new_visitors ?? 0) };
    },
    /** The site's arrivals and visitors by source field, the `days` to `day` (every day: null). */
    async byField(day: string, days: number | null): Promise<VisitGroup[]> {
      const rows = await db.query<{ field: VisitField; value: string | null; views: string; visitors: string }>(
        VISITS_SQL.byField,
        [day, days],
      );
      return rows
        .filter((r) => r.views !== null)
        .map((r) => ({ field: r.field, value: r.value, views: Number(r.views), visitors: Number(r.visitors) }));
    },
    /** The site's visitors on each day of the `days` to `day` that had any. */
    async perDay(day: string, days: number): Promise<Map<string, number>> {
      const rows = await db.query<{ day: string; visitors: string }>(VISITS_SQL.perDay, [day, days]);
      return new Map(rows.map((r) => [r.day, Number(r.visitors)]));
    },
    /** Deletes rollups and their tally older than `months` before `day`, and salts and marks older than the day before it. */
    async purge(day: string, months = ROLLUP_MONTHS) {
      const [row] = await db.query<Record<"rollups" | "salts" | "marks" | "tally", number>>(VISITS_SQL.purge, [
        months,
        day,
      ]);
      const n = (name: "rollups" | "salts" | "marks" | "tally") => Number(row?.[name] ?? 0);
      return { rollups: n("rollups"), salts: n("salts"), marks: n("marks"), tally: n("tally") };
    },
  };
}
export type VisitStore = ReturnType<typeof createVisitStore>;
