/**
 * The visits' SQL: the day's salt (made at random, read, and the salts and marks of days before yesterday deleted in
 * the same statement), one view counted in one statement, the purge of old rollups, and the reads of the console and
 * the CLI. Every day is a UTC date the handler passes, so a test's clock decides it.
 */
import type { Db } from "../db/types";
import type { VisitKey } from "./rules";

/** Page '*' in the rollups: the site as a whole (arrivals, and the day's distinct visitors of a combination). */
export const SITE_PAGE = "*";

/** How long rollups are kept: 25 months (CNIL's longest for audience measurement), then the daily purge deletes them. */
export const ROLLUP_MONTHS = 25;

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
   * $4–$8; $2 holds each one's mark (hex, in the same order). A mark new today is a new visitor of that rollup.
   */
  count: `WITH seen AS (
      INSERT INTO visit_seen (day, mark) SELECT $1::date, decode(m, 'hex') FROM unnest($2::text[]) AS m
      ON CONFLICT DO NOTHING RETURNING mark),
    counted AS (
      INSERT INTO visit_rollup AS r (day, page, source, medium, campaign, referrer, by_share_link, views, visitors)
      SELECT $1::date, k.page, $4, $5, $6, $7, $8, 1, (SELECT count(*) FROM seen WHERE mark = decode(k.mark, 'hex'))
      FROM unnest($3::text[], $2::text[]) AS k(page, mark) ORDER BY k.page
      ON CONFLICT ON CONSTRAINT visit_rollup_key
      DO UPDATE SET views = r.views + 1, visitors = r.visitors + excluded.visitors
      RETURNING 1)
    SELECT (SELECT count(*) FROM counted)::int AS rollups, (SELECT count(*) FROM seen)::int AS new_visitors`,
  /** Rollups older than $1 months before day $2, salts and marks older than the day before it: deleted. */
  purge: `WITH salts AS (DELETE FROM visit_salt WHERE day < $2::date - 1 RETURNING 1),
    marks AS (DELETE FROM visit_seen WHERE day < $2::date - 1 RETURNING 1),
    rollups AS (DELETE FROM visit_rollup WHERE day < ($2::date - make_interval(months => $1::int))::date RETURNING 1)
    SELECT (SELECT count(*) FROM rollups)::int AS rollups, (SELECT count(*) FROM salts)::int AS salts,
      (SELECT count(*) FROM marks)::int AS marks`,
  /**
   * Arrivals (views) and the day's visitors at the site ('*' rows) of the $2 days to day $1 (all days: $2 null), in
   * all and by each source field and value, and for the share links: what the funnel starts at.
   */
  byField: `WITH r AS (SELECT * FROM visit_rollup WHERE page = '*' AND day <= $1::date
      AND ($2::int IS NULL OR day > $1::date - $2::int))
    SELECT 'all' AS field, NULL AS value, sum(views)::bigint AS views, sum(visitors)::bigint AS visitors FROM r
    UNION ALL SELECT 'source', source, sum(views), sum(visitors) FROM r GROUP BY source
    UNION ALL SELECT 'medium', medium, sum(views), sum(visitors) FROM r GROUP BY medium
    UNION ALL SELECT 'campaign', campaign, sum(views), sum(visitors) FROM r GROUP BY campaign
    UNION ALL SELECT 'referrer', referrer, sum(views), sum(visitors) FROM r GROUP BY referrer
    UNION ALL SELECT 'share', NULL, sum(views), sum(visitors) FROM r WHERE by_share_link HAVING count(*) > 0`,
  /** The site's visitors per day, the $2 days to day $1. */
  perDay: `SELECT day::text AS day, sum(visitors)::bigint AS visitors FROM visit_rollup
    WHERE page = '*' AND day <= $1::date AND day > $1::date - $2::int GROUP BY day ORDER BY day`,
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
    /** Deletes rollups older than `months` before `day`, and salts and marks older than the day before it. */
    async purge(day: string, months = ROLLUP_MONTHS) {
      const [row] = await db.query<{ rollups: number; salts: number; marks: number }>(VISITS_SQL.purge, [months, day]);
      return { rollups: Number(row?.rollups ?? 0), salts: Number(row?.salts ?? 0), marks: Number(row?.marks ?? 0) };
    },
  };
}
export type VisitStore = ReturnType<typeof createVisitStore>;
