-- src/server/setup/live.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SETUP_SQL.migrated
SELECT name FROM netlify.migrations ORDER BY name;

-- SETUP_SQL.sealedSample
(SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist WHERE sealed IS NOT NULL ORDER BY id LIMIT $1::int)
    UNION (SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist WHERE sealed IS NOT NULL ORDER BY id DESC LIMIT $1::int);
