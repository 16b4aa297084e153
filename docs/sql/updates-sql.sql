-- src/server/updates/sql.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- UPDATE_SQL.audience
SELECT count(*)::int AS audience FROM waitlist w WHERE w.status = 'confirmed' AND w.updates_consent;

-- UPDATE_SQL.create
WITH made AS (
      INSERT INTO waitlist_update (subject, body, author, ticket, segment) VALUES ($1, $2, $3, $4, $5::text)
      ON CONFLICT (ticket) DO NOTHING RETURNING id
    ), recipients AS (
      INSERT INTO waitlist_update_recipient (update_id, waitlist_id)
      SELECT made.id, w.id FROM made, waitlist w WHERE w.status = 'confirmed' AND w.updates_consent AND ($6::bigint[] IS NULL OR w.id = ANY($6::bigint[])) AND NOT EXISTS (SELECT 1 FROM waitlist_update_recipient r
    WHERE r.waitlist_id = w.id AND r.state IN ('sent', 'attempted', 'queued')
      AND r.update_id = ANY (ARRAY(SELECT u.id FROM waitlist_update u WHERE u.subject = $1 AND u.body = $2))) RETURNING 1
    )
    SELECT (SELECT id FROM made) AS id, (SELECT count(*)::int FROM recipients) AS recipients,
      (SELECT id FROM waitlist_update WHERE ticket = $4) AS existing;

-- UPDATE_SQL.againAudience
SELECT count(*)::int AS audience FROM waitlist w WHERE w.status = 'confirmed' AND w.updates_consent AND NOT EXISTS (SELECT 1 FROM waitlist_update_recipient r
    WHERE r.waitlist_id = w.id AND r.state IN ('sent', 'attempted')
      AND r.update_id = ANY (ARRAY(SELECT u.id FROM waitlist_update u WHERE u.subject = $1 AND u.body = $2))) AND ($3::bigint[] IS NULL OR w.id = ANY($3::bigint[]));

-- UPDATE_SQL.createAgain
WITH made AS (
      INSERT INTO waitlist_update (subject, body, author, ticket, segment) VALUES ($1, $2, $3, $4, $5::text)
      ON CONFLICT (ticket) DO NOTHING RETURNING id
    ), recipients AS (
      INSERT INTO waitlist_update_recipient (update_id, waitlist_id)
      SELECT made.id, w.id FROM made, waitlist w WHERE w.status = 'confirmed' AND w.updates_consent AND NOT EXISTS (SELECT 1 FROM waitlist_update_recipient r
    WHERE r.waitlist_id = w.id AND r.state IN ('sent', 'attempted')
      AND r.update_id = ANY (ARRAY(SELECT u.id FROM waitlist_update u WHERE u.subject = $1 AND u.body = $2))) AND ($6::bigint[] IS NULL OR w.id = ANY($6::bigint[])) RETURNING 1
    )
    SELECT (SELECT id FROM made) AS id, (SELECT count(*)::int FROM recipients) AS recipients,
      (SELECT id FROM waitlist_update WHERE ticket = $4) AS existing;

-- UPDATE_SQL.byTicket
SELECT id FROM waitlist_update WHERE ticket = $1;

-- UPDATE_SQL.same
SELECT id, finished_at IS NOT NULL AS finished, created_at, sent FROM waitlist_update
    WHERE subject = $1 AND body = $2 AND segment IS NOT DISTINCT FROM $3::text ORDER BY id DESC LIMIT 1;

-- UPDATE_SQL.get
SELECT id, subject, body, owner, finished_at IS NOT NULL AS finished, sent, failed,
      heartbeat_at < now() - make_interval(secs => $2::int) AS stale,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = u.id) AS recipients,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = u.id AND r.state IN ('queued', 'attempted')) AS remaining
    FROM waitlist_update u WHERE id = $1;

-- UPDATE_SQL.next
SELECT r.waitlist_id AS id, r.state, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed, (w.status = 'confirmed' AND w.updates_consent) AS still
    FROM waitlist_update_recipient r JOIN waitlist w ON w.id = r.waitlist_id
    WHERE r.update_id = $1 AND r.state IN ('queued', 'attempted') AND NOT (r.waitlist_id = ANY($3::bigint[]))
    ORDER BY r.tries, r.waitlist_id LIMIT $2;

-- UPDATE_SQL.attempted
UPDATE waitlist_update_recipient r SET state = 'attempted'
    FROM waitlist w WHERE r.update_id = $1 AND r.waitlist_id = $2 AND w.id = r.waitlist_id
      AND r.state = 'queued' AND w.status = 'confirmed' AND w.updates_consent AND EXISTS (SELECT 1 FROM waitlist_update o WHERE o.id = $1 AND o.owner = $3)
    RETURNING r.waitlist_id;

-- UPDATE_SQL.requeue
UPDATE waitlist_update_recipient SET state = 'queued', tries = tries + $4::int
    WHERE update_id = $1 AND waitlist_id = $2 AND state IN ('queued', 'attempted') AND EXISTS (SELECT 1 FROM waitlist_update o WHERE o.id = $1 AND o.owner = $3)
    RETURNING tries;

-- UPDATE_SQL.done
WITH marked AS (
      UPDATE waitlist_update_recipient SET state = $3, done_at = now(), error = $4
      WHERE update_id = $1 AND waitlist_id = $2 AND state IN ('queued', 'attempted') AND EXISTS (SELECT 1 FROM waitlist_update o WHERE o.id = $1 AND o.owner = $5)
      RETURNING state
    )
    UPDATE waitlist_update SET heartbeat_at = now(),
      sent = sent + (SELECT count(*)::int FROM marked WHERE state = 'sent'),
      failed = failed + (SELECT count(*)::int FROM marked WHERE state = 'failed')
    WHERE id = $1 AND EXISTS (SELECT 1 FROM marked)
    RETURNING id;

-- UPDATE_SQL.list
SELECT u.id, u.subject, u.created_at, u.finished_at IS NOT NULL AS finished, u.owner, u.sent, u.failed,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = u.id AND r.state IN ('queued', 'attempted')) AS remaining,
      (SELECT count(*)::int FROM waitlist w JOIN waitlist_update_recipient r
          ON r.update_id = u.id AND r.waitlist_id = w.id AND r.state = 'sent'
        WHERE w.updates_consent = false AND w.updates_consent_at >= u.created_at) AS unsubscribed
    FROM waitlist_update u ORDER BY u.id DESC LIMIT $1;

-- UPDATE_SQL.choose
UPDATE waitlist SET updates_consent = $2, updates_consent_at = now(), updates_consent_words = $3
    WHERE id = (SELECT waitlist_id FROM waitlist_token WHERE token_hash = $1 AND purpose = 'status')
      AND status <> 'pending'
    RETURNING id;

-- UPDATE_SQL.chooseById
UPDATE waitlist SET updates_consent = $2, updates_consent_at = now(), updates_consent_words = $3
    WHERE id = $1 AND status <> 'pending'
    RETURNING id;

-- UPDATE_SQL.unsubscribe
UPDATE waitlist w SET updates_consent = false, updates_consent_at = now(), updates_consent_words = $3
    WHERE w.id = $2 AND w.updates_consent IS DISTINCT FROM false
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => 365))
    RETURNING w.id;

-- UPDATE_SQL.consent
SELECT updates_consent FROM waitlist WHERE id = $1;

-- UPDATE_SQL.resubscribe
UPDATE waitlist w SET updates_consent = true, updates_consent_at = now(), updates_consent_words = $3
    WHERE w.id = $2 AND w.status <> 'pending'
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => 365))
    RETURNING w.id;

-- UPDATE_SQL.leave
DELETE FROM waitlist w WHERE w.id = $2
      AND EXISTS (SELECT 1 FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
        WHERE r.update_id = $1 AND r.waitlist_id = $2
          AND u.created_at > now() - make_interval(days => 365))
    RETURNING w.id;
