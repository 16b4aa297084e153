-- src/server/webhooks/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- WEBHOOK_SQL.setEnabled
UPDATE waitlist_webhook_state SET enabled = $1 WHERE enabled IS DISTINCT FROM $1;

-- WEBHOOK_SQL.state
SELECT enabled, paused_at, paused_reason FROM waitlist_webhook_state;

-- WEBHOOK_SQL.pause
UPDATE waitlist_webhook_state SET paused_at = now(), paused_reason = $1 WHERE paused_at IS NULL;

-- WEBHOOK_SQL.resume
UPDATE waitlist_webhook_state SET paused_at = NULL, paused_reason = NULL;

-- WEBHOOK_SQL.claim
UPDATE waitlist_webhook_event SET lease_owner = $1, lease_until = now() + make_interval(secs => 60),
      attempts = attempts + 1, last_attempt_at = now()
    WHERE id = (
      SELECT id FROM waitlist_webhook_event
      WHERE state = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
        AND NOT EXISTS (SELECT 1 FROM waitlist_webhook_state WHERE paused_at IS NOT NULL)
      ORDER BY next_attempt_at, occurred_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id, type, waitlist_id, occurred_at, person, attempts;

-- WEBHOOK_SQL.delivered
UPDATE waitlist_webhook_event SET state = 'delivered', delivered_at = now(), person = NULL,
      lease_owner = NULL, lease_until = NULL, last_status = $3, last_answer = $4, last_error = NULL
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id;

-- WEBHOOK_SQL.missed
UPDATE waitlist_webhook_event SET lease_owner = NULL, lease_until = NULL, last_status = $3, last_answer = $4,
      last_error = $6,
      state = CASE WHEN $5::int IS NULL THEN 'failed' ELSE 'pending' END,
      next_attempt_at = CASE WHEN $5::int IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $5::int) END
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id;

-- WEBHOOK_SQL.release
UPDATE waitlist_webhook_event SET lease_owner = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0),
      last_error = $4, next_attempt_at = now() + make_interval(secs => $3::int)
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id;

-- WEBHOOK_SQL.sealedKeys
SELECT DISTINCT k.key_id FROM waitlist_webhook_event e,
      LATERAL (VALUES (e.person->>'key_id'), (e.person->'referred'->>'key_id')) AS k(key_id)
    WHERE e.state = 'pending' AND nullif(k.key_id, '') IS NOT NULL ORDER BY 1;

-- WEBHOOK_SQL.retain
WITH gone AS (
      DELETE FROM waitlist_webhook_event WHERE state = 'delivered' AND delivered_at < now() - make_interval(days => $1::int)
      RETURNING 1
    ), forgotten AS (
      UPDATE waitlist_webhook_event SET person = NULL,
        state = CASE WHEN state = 'pending' THEN 'failed' ELSE state END,
        last_error = CASE WHEN state = 'pending' THEN $2 ELSE last_error END
      WHERE person IS NOT NULL AND occurred_at < now() - make_interval(days => $1::int)
        AND (lease_until IS NULL OR lease_until < now())
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM gone) AS deleted, (SELECT count(*)::int FROM forgotten) AS forgotten;
