-- src/server/store/server-secret.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SECRET_SQL.secret
SELECT value FROM waitlist_secret WHERE name = 'server';
