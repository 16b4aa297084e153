-- src/server/webhooks/log-store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- WEBHOOK_LOG_SQL.retry
UPDATE waitlist_webhook_event SET state = 'pending', next_attempt_at = now(), attempts = 0
    WHERE id = $1 AND state IN ('failed', 'pending') RETURNING id;

-- WEBHOOK_LOG_SQL.test
INSERT INTO waitlist_webhook_event (id, type, person) VALUES (waitlist_webhook_new_id(), 'webhook.test', NULL)
    RETURNING id;

-- WEBHOOK_LOG_SQL.recent
SELECT id, type, waitlist_id, person, occurred_at, state, attempts,
      CASE WHEN state = 'pending' THEN next_attempt_at END AS next_attempt_at, last_status, last_answer, last_error FROM waitlist_webhook_event WHERE ($2::bigint IS NULL OR waitlist_id = $2::bigint)
      AND ($3::text IS NULL OR state = $3::text)
    ORDER BY occurred_at DESC, id DESC LIMIT $1;

-- WEBHOOK_LOG_SQL.stateOf
SELECT state, last_status, last_error FROM waitlist_webhook_event WHERE id = $1;

-- WEBHOOK_LOG_SQL.health
SELECT (SELECT min(occurred_at) FROM waitlist_webhook_event WHERE state = 'pending') AS oldest,
      (SELECT count(*)::int FROM waitlist_webhook_event WHERE state = 'pending') AS waiting,
      (SELECT coalesce(json_agg(json_build_object('delivered', r.state = 'delivered', 'status', r.last_status,
          'error', r.last_error, 'answer', r.last_answer) ORDER BY r.last_attempt_at DESC), '[]')
        FROM (SELECT state, last_status, last_error, last_answer, last_attempt_at FROM waitlist_webhook_event
          WHERE last_attempt_at IS NOT NULL AND (lease_until IS NULL OR lease_until < now())
          ORDER BY last_attempt_at DESC LIMIT $1) r) AS recent;

-- WEBHOOK_LOG_SQL.drain
WITH due AS (
      UPDATE waitlist_webhook_event SET next_attempt_at = now() WHERE state = 'pending' AND next_attempt_at > now()
      RETURNING 1
    )
    INSERT INTO waitlist_webhook_drain (author, owner, heartbeat_at, total)
    VALUES ($1, 'paused', now(), (SELECT count(*)::int FROM waitlist_webhook_event WHERE state = 'pending'))
    RETURNING id, total, (SELECT count(*)::int FROM due) AS made_due;

-- WEBHOOK_LOG_SQL.counts
SELECT state, count(*)::int AS n FROM waitlist_webhook_event GROUP BY state;
