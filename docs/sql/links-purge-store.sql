-- src/server/links/purge-store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- PURGE_SQL.purgePending
WITH old AS (
      SELECT id FROM waitlist w WHERE status = 'pending'
        AND greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - make_interval(hours => $1::int)
        AND NOT EXISTS (
          SELECT 1 FROM waitlist_token t WHERE t.waitlist_id = w.id AND t.purpose = 'confirm' AND t.expires_at > now()
        )
    ), purged AS (
      DELETE FROM waitlist WHERE $2::boolean AND id IN (SELECT id FROM old) RETURNING id
    )
    SELECT (SELECT count(*)::int FROM old) AS matched, (SELECT count(*)::int FROM purged) AS purged;
