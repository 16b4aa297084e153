-- src/server/suppression/pause.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- PAUSE_SQL.pause
UPDATE waitlist_update SET owner = $2 WHERE id = $1 AND finished_at IS NULL AND owner IS NOT NULL
    AND owner <> $2 RETURNING id;
