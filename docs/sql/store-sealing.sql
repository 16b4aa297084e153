-- src/server/store/sealing.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SEALING_SQL.sealing
SELECT nullif(key_id, '') AS key_id, sum(count)::bigint AS count FROM waitlist_tally
    GROUP BY key_id HAVING sum(count) > 0;

-- SEALING_SQL.unsealed
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist WHERE key_id IS DISTINCT FROM $1 ORDER BY id LIMIT $2::int;

-- SEALING_SQL.seal
UPDATE waitlist w SET name = NULL, message = NULL, organization = NULL, why = NULL, connect = NULL, answers = NULL,
      email = u.email, key_id = $1, sealed = u.sealed
    FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS u(id, email, sealed, old_key)
    WHERE w.id = u.id AND w.key_id IS NOT DISTINCT FROM u.old_key
    RETURNING w.id;
