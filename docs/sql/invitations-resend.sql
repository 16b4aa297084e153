-- src/server/invitations/resend.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- RESEND_SQL.claim
WITH claim AS (
      INSERT INTO mail_reminder (waitlist_id, kind)
      SELECT id, 'resend' FROM waitlist WHERE id = $1 AND status = 'invited'
      ON CONFLICT DO NOTHING RETURNING waitlist_id
    ), old AS (
      SELECT w.id, w.invite_code_hash, w.invite_expires_at, w.confirmed_at IS NOT NULL AS confirmed_by_link
      FROM waitlist w JOIN claim c ON c.waitlist_id = w.id
    ), person AS (
      UPDATE waitlist w SET invite_code_hash = $2,
        invite_expires_at = greatest(w.invite_expires_at, now() + make_interval(days => $3::int))
      FROM old WHERE w.id = old.id RETURNING w.id, w.invite_expires_at
    ), links AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $4::text, id, 'remove', now() + make_interval(days => 30) FROM person
      UNION ALL
      SELECT $5::text, id, 'status', 'infinity' FROM person
    )
    SELECT p.invite_expires_at AS expires, o.invite_code_hash AS first_hash, o.invite_expires_at::text AS first_expires,
      o.confirmed_by_link
    FROM person p JOIN old o ON o.id = p.id;

-- RESEND_SQL.undo
WITH restored AS (
      UPDATE waitlist SET invite_code_hash = $3, invite_expires_at = $4::timestamptz
      WHERE id = $1 AND invite_code_hash = $2 RETURNING id
    ), links AS (
      DELETE FROM waitlist_token WHERE waitlist_id = $1 AND token_hash = ANY($5::text[])
    )
    DELETE FROM mail_reminder WHERE waitlist_id = $1 AND kind = 'resend';
