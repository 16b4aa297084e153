-- src/server/console/people/people-data.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- PEOPLE_SQL.values
SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value) AS rank
      FROM waitlist_day_tally WHERE field <> 'all' AND value IS NOT NULL
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $1 ORDER BY field, rank;

-- PEOPLE_SQL.wave
SELECT started_at, size, invited, refused, finished_at IS NOT NULL AS finished
    FROM waitlist_invite_wave WHERE id = $1;

-- PEOPLE_SQL.people
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed, status, created_at, source, invite_wave_id IS NOT NULL AS held,
    mail_suppressed AS suppressed
    FROM waitlist WHERE id = ANY($1::bigint[]) ORDER BY created_at DESC, id DESC;

-- PEOPLE_SQL.removed
SELECT details FROM waitlist_audit
    WHERE action = 'remove-selected' AND (details ->> 'started')::bigint = $1::bigint;
