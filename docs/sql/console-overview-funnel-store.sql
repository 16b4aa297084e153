-- src/server/console/overview/funnel-store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- FUNNEL_SQL.recent
SELECT field, value, status, sum(count)::bigint AS count FROM waitlist_funnel_tally
    WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int
    GROUP BY field, value, status HAVING sum(count) <> 0;

-- FUNNEL_SQL.all
SELECT field, value, status, sum(count)::bigint AS count FROM waitlist_funnel_tally
    GROUP BY field, value, status HAVING sum(count) <> 0;
