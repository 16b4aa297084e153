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
