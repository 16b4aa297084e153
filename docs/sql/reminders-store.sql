-- src/server/reminders/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- REMINDER_SQL.count
SELECT count(*)::int AS n FROM waitlist w
  WHERE w.status = 'pending'
    AND coalesce(w.confirmation_sent_at, w.created_at) <= now() - make_interval(hours => $1::int)
    AND w.created_at > now() - make_interval(hours => $1::int + 48)
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = 'confirm')
    AND NOT w.mail_suppressed
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => 60));

-- REMINDER_SQL.due
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed FROM waitlist w
  WHERE w.status = 'pending'
    AND coalesce(w.confirmation_sent_at, w.created_at) <= now() - make_interval(hours => $1::int)
    AND w.created_at > now() - make_interval(hours => $1::int + 48)
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = 'confirm')
    AND NOT w.mail_suppressed
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => 60)) ORDER BY w.id LIMIT $2;

-- REMINDER_SQL.inviteCount
SELECT count(*)::int AS n FROM waitlist w
  WHERE w.status = 'invited' AND w.invite_code_hash IS NOT NULL
    AND w.invite_expires_at <= now() + make_interval(days => $1::int)
    AND w.invite_expires_at > now() + interval '1 hour'
    AND w.invited_at <= now() - interval '1 day'
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = 'invite')
    AND NOT w.mail_suppressed
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => 60));

-- REMINDER_SQL.inviteDue
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed, w.confirmed_at IS NOT NULL AS confirmed_by_link, w.invite_expires_at
    FROM waitlist w
  WHERE w.status = 'invited' AND w.invite_code_hash IS NOT NULL
    AND w.invite_expires_at <= now() + make_interval(days => $1::int)
    AND w.invite_expires_at > now() + interval '1 hour'
    AND w.invited_at <= now() - interval '1 day'
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = 'invite')
    AND NOT w.mail_suppressed
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => 60)) ORDER BY w.invite_expires_at, w.id LIMIT $2;

-- REMINDER_SQL.inviteCode
WITH person AS (
      UPDATE waitlist SET invite_reminder_code_hash = $2
      WHERE id = $1 AND status = 'invited' AND invite_expires_at > now() RETURNING id, invite_expires_at
    ), links AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $3::text, id, 'remove', now() + make_interval(days => 30) FROM person
      UNION ALL
      SELECT $4::text, id, 'status', 'infinity' FROM person
    )
    SELECT invite_expires_at FROM person;

-- REMINDER_SQL.claim
INSERT INTO mail_reminder (waitlist_id, kind) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING waitlist_id;

-- REMINDER_SQL.of
SELECT kind, sent_at FROM mail_reminder WHERE waitlist_id = $1 ORDER BY sent_at;

-- REMINDER_SQL.outcome
SELECT count(*)::int AS reminded, count(*) FILTER (WHERE w.confirmed_at > r.sent_at)::int AS confirmed
    FROM mail_reminder r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.kind = 'confirm';

-- REMINDER_SQL.inviteOutcome
SELECT count(*)::int AS reminded, count(*) FILTER (WHERE w.joined_at > r.sent_at)::int AS joined
    FROM mail_reminder r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.kind = 'invite';
