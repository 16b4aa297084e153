-- src/server/console/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- CONSOLE_SQL.count
SELECT status, sum(count)::bigint AS count FROM waitlist_tally GROUP BY status;

-- CONSOLE_SQL.breakdown
SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value NULLS LAST) AS rank
      FROM waitlist_day_tally WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int AND field <> 'all'
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $2 ORDER BY field, rank;

-- CONSOLE_SQL.erase
DELETE FROM waitlist WHERE lower(email) = ANY($1::text[]) RETURNING id;

-- CONSOLE_SQL.perDay
SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(t.count, 0)::bigint AS count
    FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
    LEFT JOIN waitlist_day_tally t ON t.day = d.day::date AND t.field = 'all' AND t.value IS NULL
    ORDER BY d.day;

-- CONSOLE_SQL.chart
SELECT to_char(d.day, 'YYYY-MM-DD') AS day, t.status, coalesce(t.count, 0)::bigint AS count
    FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
    LEFT JOIN (SELECT day, status, sum(count) AS count FROM waitlist_funnel_tally
      WHERE field = 'all' AND day > (now() AT TIME ZONE 'UTC')::date - $1::int GROUP BY day, status) t ON t.day = d.day::date
    UNION ALL
    SELECT NULL, status, sum(count)::bigint FROM waitlist_funnel_tally
    WHERE field = 'all' AND day <= (now() AT TIME ZONE 'UTC')::date - $1::int GROUP BY status
    ORDER BY 1 NULLS FIRST, 2;

-- CONSOLE_SQL.marks
SELECT kind, to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, n, subject FROM (
      SELECT 'wave' AS kind, started_at AS at, invited AS n, NULL AS subject FROM waitlist_invite_wave
      WHERE invited > 0 AND (started_at AT TIME ZONE 'UTC')::date > (now() AT TIME ZONE 'UTC')::date - $1::int
      UNION ALL
      SELECT 'update', created_at, sent, subject FROM waitlist_update
      WHERE sent > 0 AND (created_at AT TIME ZONE 'UTC')::date > (now() AT TIME ZONE 'UTC')::date - $1::int
    ) m ORDER BY at, kind LIMIT 200;

-- CONSOLE_SQL.suppressions
SELECT reason,
      count(*) FILTER (WHERE suppressed_at > now() - interval '1 day')::int AS last_day,
      count(*) FILTER (WHERE suppressed_at <= now() - interval '1 day')::int AS week_before
    FROM mail_suppression WHERE suppressed_at > now() - interval '8 days' GROUP BY reason ORDER BY reason;
