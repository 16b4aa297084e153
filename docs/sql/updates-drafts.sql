-- src/server/updates/drafts.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- DRAFT_SQL.save
INSERT INTO waitlist_update_draft (words, subject, body) VALUES ($1, $2, $3)
    ON CONFLICT (words) DO UPDATE SET created_at = now();

-- DRAFT_SQL.prune
DELETE FROM waitlist_update_draft WHERE created_at < now() - interval '7 days';

-- DRAFT_SQL.read
SELECT subject, body FROM waitlist_update_draft WHERE words = $1;
