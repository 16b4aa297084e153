-- src/server/visits/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- VISITS_SQL.salt
WITH gone AS (DELETE FROM visit_salt WHERE day < $1::date - 1),
    marks_gone AS (DELETE FROM visit_seen WHERE day < $1::date - 1),
    made AS (INSERT INTO visit_salt (day, salt) VALUES ($1::date, decode($2, 'hex'))
      ON CONFLICT (day) DO NOTHING RETURNING salt)
    SELECT encode(salt, 'hex') AS salt FROM made
    UNION ALL SELECT encode(salt, 'hex') FROM visit_salt WHERE day = $1::date
    LIMIT 1;

-- VISITS_SQL.count
WITH seen AS (
      INSERT INTO visit_seen (day, mark) SELECT $1::date, decode(m, 'hex') FROM unnest($2::text[]) AS m
      ON CONFLICT DO NOTHING RETURNING mark),
    counted AS (
      INSERT INTO visit_rollup AS r (day, page, source, medium, campaign, referrer, by_share_link, views, visitors)
      SELECT $1::date, k.page, $4, $5, $6, $7, $8, 1, (SELECT count(*) FROM seen WHERE mark = decode(k.mark, 'hex'))
      FROM unnest($3::text[], $2::text[]) AS k(page, mark) ORDER BY k.page
      ON CONFLICT ON CONSTRAINT visit_rollup_key
      DO UPDATE SET views = r.views + 1, visitors = r.visitors + excluded.visitors
      RETURNING 1)
    SELECT (SELECT count(*) FROM counted)::int AS rollups, (SELECT count(*) FROM seen)::int AS new_visitors;

-- VISITS_SQL.purge
WITH salts AS (DELETE FROM visit_salt WHERE day < $2::date - 1 RETURNING 1),
    marks AS (DELETE FROM visit_seen WHERE day < $2::date - 1 RETURNING 1),
    rollups AS (DELETE FROM visit_rollup WHERE day < ($2::date - make_interval(months => $1::int))::date RETURNING 1)
    SELECT (SELECT count(*) FROM rollups)::int AS rollups, (SELECT count(*) FROM salts)::int AS salts,
      (SELECT count(*) FROM marks)::int AS marks;

-- VISITS_SQL.byField
WITH r AS (SELECT * FROM visit_rollup WHERE page = '*' AND day <= $1::date
      AND ($2::int IS NULL OR day > $1::date - $2::int))
    SELECT 'all' AS field, NULL AS value, sum(views)::bigint AS views, sum(visitors)::bigint AS visitors FROM r
    UNION ALL SELECT 'source', source, sum(views), sum(visitors) FROM r GROUP BY source
    UNION ALL SELECT 'medium', medium, sum(views), sum(visitors) FROM r GROUP BY medium
    UNION ALL SELECT 'campaign', campaign, sum(views), sum(visitors) FROM r GROUP BY campaign
    UNION ALL SELECT 'referrer', referrer, sum(views), sum(visitors) FROM r GROUP BY referrer
    UNION ALL SELECT 'share', NULL, sum(views), sum(visitors) FROM r WHERE by_share_link HAVING count(*) > 0;

-- VISITS_SQL.perDay
SELECT day::text AS day, sum(visitors)::bigint AS visitors FROM visit_rollup
    WHERE page = '*' AND day <= $1::date AND day > $1::date - $2::int GROUP BY day ORDER BY day;
