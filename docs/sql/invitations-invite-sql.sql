-- src/server/invitations/invite-sql.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- INVITE_SQL.preview
SELECT count(*)::int AS count, min(created_at) AS first, max(created_at) AS last,
      (SELECT count(*)::int FROM waitlist WHERE status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed) AS available
    FROM waitlist WHERE id = ANY($1::bigint[]);

-- INVITE_SQL.startWave
INSERT INTO waitlist_invite_wave (owner, size) VALUES ($1, $2) RETURNING id;

-- INVITE_SQL.reserve
UPDATE waitlist SET invite_wave_id = $1 WHERE id IN (
      SELECT id FROM waitlist WHERE id = ANY($2::bigint[]) AND status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed FOR UPDATE SKIP LOCKED
    ) RETURNING id;

-- INVITE_SQL.members
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed, invite_attempted_at IS NOT NULL AS attempted,
      confirmed_at IS NOT NULL AS confirmed_by_link FROM waitlist
    WHERE invite_wave_id = $1 AND status = 'confirmed' ORDER BY created_at, id;

-- INVITE_SQL.unfinished
SELECT v.id, v.owner, v.heartbeat_at < now() - make_interval(secs => $1::int) AS stale,
      (SELECT count(*)::int FROM waitlist w WHERE w.invite_wave_id = v.id AND w.status = 'confirmed') AS remaining
    FROM waitlist_invite_wave v WHERE v.finished_at IS NULL AND v.paused_reason IS NULL ORDER BY v.id;

-- INVITE_SQL.prepare
WITH person AS (
      UPDATE waitlist SET invite_code_hash = $3, invite_expires_at = now() + make_interval(days => $4::int)
      WHERE id = $1 AND invite_wave_id IS NOT DISTINCT FROM $2 AND status = 'confirmed' RETURNING id
    ), leave AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $5::text, id, 'remove', now() + make_interval(days => 30) FROM person WHERE $5::text IS NOT NULL
      UNION ALL
      SELECT $6::text, id, 'status', 'infinity' FROM person WHERE $6::text IS NOT NULL
    ), beat AS (
      UPDATE waitlist_invite_wave SET heartbeat_at = now() WHERE id = $2
    )
    SELECT count(*)::int AS held FROM person;

-- INVITE_SQL.attempted
UPDATE waitlist SET invite_attempted_at = now()
    WHERE id = $1 AND invite_wave_id IS NOT DISTINCT FROM $2 AND status = 'confirmed' RETURNING id;

-- INVITE_SQL.sent
WITH invited AS (
      UPDATE waitlist SET status = 'invited', invited_at = now(), invite_wave_id = NULL, invited_wave_id = $2,
        invite_attempted_at = NULL
      WHERE id = $1 AND invite_wave_id IS NOT DISTINCT FROM $2 AND status = 'confirmed' RETURNING id
    ), counted AS (
      UPDATE waitlist_invite_wave SET invited = invited + 1 WHERE id = $2 AND EXISTS (SELECT 1 FROM invited)
    )
    SELECT id FROM invited;

-- INVITE_SQL.sentAll
UPDATE waitlist w SET status = 'invited', invited_at = now(), invite_wave_id = NULL, invited_wave_id = $1,
      invite_code_hash = c.hash, invite_expires_at = now() + make_interval(days => $4::int)
    FROM unnest($2::bigint[], $3::text[]) AS c(id, hash)
    WHERE w.id = c.id AND w.invite_wave_id = $1 AND w.status = 'confirmed' RETURNING w.id;

-- INVITE_SQL.release
WITH released AS (
      UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
        invite_attempted_at = NULL
      WHERE id = $1 AND invite_wave_id IS NOT DISTINCT FROM $2 AND status = 'confirmed' RETURNING id
    )
    DELETE FROM waitlist_token WHERE token_hash = ANY($3::text[]) AND waitlist_id IN (SELECT id FROM released);

-- INVITE_SQL.finish
WITH released AS (
      UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
        invite_attempted_at = NULL
      WHERE invite_wave_id = $1 AND status = 'confirmed' RETURNING id
    )
    UPDATE waitlist_invite_wave SET finished_at = now() WHERE id = $1;

-- INVITE_SQL.releaseCancelled
UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
      invite_attempted_at = NULL
    WHERE status = 'confirmed' AND invite_wave_id IN (
        SELECT id FROM waitlist_invite_wave WHERE cancelled_at IS NOT NULL AND ($1::bigint IS NULL OR id = $1::bigint))
      AND (invite_attempted_at IS NULL OR invite_attempted_at < now() - make_interval(secs => $2::int))
    RETURNING id;

-- INVITE_SQL.redeem
WITH invite AS (
      SELECT status, invite_expires_at <= now() AS expired FROM waitlist
      WHERE invite_code_hash = $1 OR invite_reminder_code_hash = $1
    ), joined AS (
      UPDATE waitlist SET status = 'joined', joined_at = now(), invited_at = coalesce(invited_at, now()),
        invite_wave_id = NULL, invite_attempted_at = NULL
      WHERE (invite_code_hash = $1 OR invite_reminder_code_hash = $1) AND invite_expires_at > now()
        AND (status = 'invited' OR (status = 'confirmed' AND invite_attempted_at IS NOT NULL))
      RETURNING name, email, message, organization, why, connect, answers, key_id, sealed
    )
    SELECT (SELECT name FROM joined) AS name, (SELECT email FROM joined) AS email, (SELECT message FROM joined) AS message, (SELECT organization FROM joined) AS organization, (SELECT why FROM joined) AS why, (SELECT connect FROM joined) AS connect, (SELECT answers FROM joined) AS answers,
      (SELECT key_id FROM joined) AS key_id, (SELECT sealed FROM joined) AS sealed, (SELECT count(*)::int FROM joined) AS joined,
      (SELECT status FROM invite) AS status, (SELECT expired FROM invite) AS expired;

-- INVITE_SQL.redeemById
WITH invite AS (
      SELECT status, invite_expires_at <= now() AS expired FROM waitlist
      WHERE id = $1::bigint AND date_trunc('milliseconds', invite_expires_at) = $2::timestamptz
    ), joined AS (
      UPDATE waitlist SET status = 'joined', joined_at = now(), invited_at = coalesce(invited_at, now()),
        invite_wave_id = NULL, invite_attempted_at = NULL
      WHERE (id = $1::bigint AND date_trunc('milliseconds', invite_expires_at) = $2::timestamptz) AND invite_expires_at > now()
        AND (status = 'invited' OR (status = 'confirmed' AND invite_attempted_at IS NOT NULL))
      RETURNING name, email, message, organization, why, connect, answers, key_id, sealed
    )
    SELECT (SELECT name FROM joined) AS name, (SELECT email FROM joined) AS email, (SELECT message FROM joined) AS message, (SELECT organization FROM joined) AS organization, (SELECT why FROM joined) AS why, (SELECT connect FROM joined) AS connect, (SELECT answers FROM joined) AS answers,
      (SELECT key_id FROM joined) AS key_id, (SELECT sealed FROM joined) AS sealed, (SELECT count(*)::int FROM joined) AS joined,
      (SELECT status FROM invite) AS status, (SELECT expired FROM invite) AS expired;

-- INVITE_SQL.accessOf
SELECT status, invite_expires_at FROM waitlist WHERE id = $1::bigint;
