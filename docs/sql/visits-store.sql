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
      set_config('synchronous_commit', 'off', true) AS commit_without_waiting;

-- VISITS_SQL.purge
WITH salts AS (DELETE FROM visit_salt WHERE day < $2::date - 1 RETURNING 1),
    marks AS (DELETE FROM visit_seen WHERE day < $2::date - 1 RETURNING 1),
    cut AS (SELECT day, date_trunc('month', day::timestamp)::date AS month
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
      ((SELECT count(*) FROM days) + (SELECT count(*) FROM months))::int AS tally;

-- VISITS_SQL.byField
WITH b AS (SELECT $1::date AS last_day, $1::date - $2::int + 1 AS first_day),
    c AS (SELECT last_day, first_day, CASE WHEN first_day - date_trunc('month', first_day::timestamp)::date <= (date_trunc('month', first_day::timestamp) + interval '1 month')::date - first_day
        THEN date_trunc('month', first_day::timestamp)::date ELSE (date_trunc('month', first_day::timestamp) + interval '1 month')::date END AS cut FROM b),
    x AS (
      SELECT 1 AS sign, t.* FROM visit_tally t WHERE t.span = 'month' AND t.field = ANY(ARRAY['all', 'source', 'medium', 'campaign', 'referrer', 'share'])
        AND t.day <= (SELECT last_day FROM c) AND t.day >= coalesce((SELECT cut FROM c), '-infinity')
      UNION ALL
      SELECT 1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(ARRAY['all', 'source', 'medium', 'campaign', 'referrer', 'share'])
        AND t.day >= (SELECT first_day FROM c) AND t.day < (SELECT cut FROM c)
      UNION ALL
      SELECT -1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(ARRAY['all', 'source', 'medium', 'campaign', 'referrer', 'share'])
        AND t.day >= (SELECT cut FROM c) AND t.day < (SELECT first_day FROM c)
      UNION ALL
      SELECT -1, t.* FROM visit_tally t WHERE t.span = 'day' AND t.field = ANY(ARRAY['all', 'source', 'medium', 'campaign', 'referrer', 'share'])
        AND t.day > (SELECT last_day FROM c) AND t.day < (SELECT (date_trunc('month', last_day::timestamp) + interval '1 month')::date FROM c))
    SELECT field, value, sum(sign * views)::bigint AS views, sum(sign * visitors)::bigint AS visitors FROM x
    GROUP BY field, value HAVING sum(sign * views) <> 0;

-- VISITS_SQL.perDay
SELECT day::text AS day, visitors FROM visit_tally
    WHERE span = 'day' AND field = 'all' AND day <= $1::date AND day > $1::date - $2::int ORDER BY day;
