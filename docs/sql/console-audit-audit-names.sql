-- src/server/console/audit/audit-names.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SQL.updates
SELECT id, subject, sent, failed, finished_at IS NOT NULL AS finished FROM waitlist_update
    WHERE id = ANY($1::bigint[]);

-- SQL.waves
SELECT id, size, invited, finished_at IS NOT NULL AS finished FROM waitlist_invite_wave
    WHERE id = ANY($1::bigint[]);

-- SQL.events
SELECT id, type FROM waitlist_webhook_event WHERE id = ANY($1::text[]);

-- SQL.people
SELECT id FROM waitlist WHERE id = ANY($1::bigint[]);
