/**
 * What `npm run bench -- visits` fills by SQL: the rollups (migration 0024) that `views` page views from `visitors`
 * day-visitors over `days` UTC days to today would have left, stored as src/server/visits/store.ts counts them. Each
 * day-visitor (a mark's day and person: the same person on two days is two visitors, as the salt makes them) has one
 * day and one source combination, and sees views / visitors pages, the first an arrival (counted again under page
 * '*', the site). Half the visitors come direct (no source at all), a fifth from five big referring sites, 15% by
 * campaign links (7 sources × 3 media × 10 campaigns), 10% from a long tail of 500 small sites, 5% by share links:
 * the rows a combination costs are the point of the figure, so the tail is there.
 */

/** The view `g`'s day-visitor, day and key, for views 1..views (each visitor's first view, g ≤ visitors, arrives). */
function viewsSql(views: number, visitors: number, days: number): string {
  return `SELECT g, u, (now() AT TIME ZONE 'UTC')::date - (u % ${days})::int AS day,
      (ARRAY['/', '/product', '/join', '/', '/terms-of-service', '404'])[1 + (g / ${visitors} + u) % 6] AS page,
      g <= ${visitors} AS arrival,
      c.source, c.medium, c.campaign, c.referrer, c.by_share_link
    FROM generate_series(1, ${views}) AS g
    CROSS JOIN LATERAL (SELECT 1 + (g::bigint * 7919) % ${visitors} AS u) AS v
    CROSS JOIN LATERAL (SELECT u / ${days} % 20 AS kind, u / ${days} / 20 AS w) AS k
    CROSS JOIN LATERAL (SELECT
      CASE WHEN kind BETWEEN 14 AND 16 THEN
        (ARRAY['hn', 'newsletter', 'twitter', 'linkedin', 'producthunt', 'reddit', 'mastodon'])[1 + w / 10 % 7] END
        AS source,
      CASE WHEN kind BETWEEN 14 AND 16 THEN (ARRAY['social', 'email', 'cpc'])[1 + w % 3] END AS medium,
      CASE WHEN kind BETWEEN 14 AND 16 THEN 'campaign-' || (w % 10) END AS campaign,
      CASE WHEN kind BETWEEN 10 AND 13 THEN
          (ARRAY['news.ycombinator.com', 't.co', 'linkedin.com', 'duckduckgo.com', 'google.com'])[1 + w % 5]
        WHEN kind IN (17, 18) THEN 'site' || (w % 500) || '.example' END AS referrer,
      kind = 19 AS by_share_link) AS c`;
}

/** The rollups of those views: per day × page × key, and the arrivals under '*'; one statement. */
export function visitsFillSql(views: number, visitors: number, days: number): string {
  const key = "day, page, source, medium, campaign, referrer, by_share_link";
  // Per visitor first, then per rollup: two hash aggregates, where count(DISTINCT) would sort every view.
  return `INSERT INTO visit_rollup (${key}, views, visitors)
    WITH v AS MATERIALIZED (${viewsSql(views, visitors, days)}),
    each AS (SELECT ${key}, u, count(*) AS n FROM v GROUP BY ${key}, u),
    arrived AS (SELECT day, source, medium, campaign, referrer, by_share_link, u, count(*) AS n FROM v WHERE arrival
      GROUP BY day, source, medium, campaign, referrer, by_share_link, u)
    SELECT ${key}, sum(n), count(*) FROM each GROUP BY ${key}
    UNION ALL
    SELECT day, '*', source, medium, campaign, referrer, by_share_link, sum(n), count(*)
      FROM arrived GROUP BY day, source, medium, campaign, referrer, by_share_link`;
}

/**
 * The marks of today and yesterday (the only days whose marks are kept): one 16-byte mark per day-visitor and page
 * they saw, and one for their arrival; and the two days' salts.
 */
export function marksFillSql(views: number, visitors: number, days: number): string[] {
  return [
    `INSERT INTO visit_seen (day, mark)
      SELECT DISTINCT day, decode(md5(u || ' ' || page), 'hex') FROM (${viewsSql(views, visitors, days)}) v
        WHERE day >= (now() AT TIME ZONE 'UTC')::date - 1
      UNION SELECT day, decode(md5(u || ' *'), 'hex') FROM (${viewsSql(views, visitors, days)}) v
        WHERE arrival AND day >= (now() AT TIME ZONE 'UTC')::date - 1`,
    `INSERT INTO visit_salt (day, salt) SELECT (now() AT TIME ZONE 'UTC')::date - d, decode(md5(random()::text) || md5(random()::text), 'hex')
      FROM generate_series(0, 1) AS d`,
  ];
}

/**
 * The tally of the rollups filled (migration 0028), made as the migration made it from the rollups there: the same
 * rows the count statement would have kept view by view (tests/integration/visits/visit-tally.test.ts).
 */
export const TALLY_FILL_SQL = "SELECT visit_tally_refill()";

/** Whether the tally's site-wide days are the '*' rollups' sums (after beacons the count statement kept both). */
export const TALLY_CHECK_SQL = `SELECT
    (SELECT coalesce(sum(visitors), 0) FROM visit_rollup WHERE page = '*')::bigint AS rollups,
    (SELECT coalesce(sum(visitors), 0) FROM visit_tally WHERE span = 'day' AND field = 'all')::bigint AS day_tally,
    (SELECT coalesce(sum(visitors), 0) FROM visit_tally WHERE span = 'month' AND field = 'all')::bigint AS month_tally`;

/** What was stored: rows, and bytes on disk of each visits table (pg_total_relation_size: heap, indexes, TOAST). */
export const VISITS_SIZE_SQL = `SELECT
    (SELECT count(*) FROM visit_rollup)::bigint AS rollup_rows,
    (SELECT count(*) FROM visit_tally)::bigint AS tally_rows,
    (SELECT count(*) FROM visit_seen)::bigint AS seen_rows,
    (SELECT coalesce(sum(views), 0) FROM visit_rollup WHERE page <> '*')::bigint AS views,
    (SELECT coalesce(sum(visitors), 0) FROM visit_rollup WHERE page = '*')::bigint AS visitors,
    pg_total_relation_size('visit_rollup') AS rollup_bytes,
    pg_total_relation_size('visit_tally') AS tally_bytes,
    pg_total_relation_size('visit_seen') AS seen_bytes,
    pg_total_relation_size('visit_salt') AS salt_bytes`;
