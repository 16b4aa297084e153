-- src/server/audit/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- AUDIT_SQL.append
INSERT INTO waitlist_audit (actor, action, details) VALUES ($1, $2, $3::jsonb) RETURNING id;

-- AUDIT_SQL.page
SELECT id, at, actor, action, details FROM waitlist_audit
    WHERE ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $1;

-- AUDIT_SQL.actions
SELECT a.id, a.at, a.actor, a.action, coalesce(s.details, '{}'::jsonb) || a.details AS details
    FROM waitlist_audit a
    LEFT JOIN waitlist_audit s ON a.details ? 'started' AND s.id = (a.details ->> 'started')::bigint
    WHERE ($2::bigint IS NULL OR a.id < $2::bigint)
      AND NOT (a.details ->> 'phase' = 'started' AND EXISTS (
        SELECT 1 FROM waitlist_audit e WHERE e.details ? 'started' AND (e.details ->> 'started')::bigint = a.id
          OFFSET 0))
    ORDER BY a.id DESC LIMIT $1;

-- AUDIT_SQL.purge
SELECT waitlist_audit_purge($1::int) AS removed;
