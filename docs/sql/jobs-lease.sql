-- src/server/jobs/lease.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- JOB_SQL.update.lease
SELECT owner, coalesce(heartbeat_at < now() - make_interval(secs => 60), false) AS stale,
        finished_at IS NOT NULL AS finished, paused_reason, cancelled_at IS NOT NULL AS cancelled
      FROM waitlist_update WHERE id = $1;

-- JOB_SQL.update.take
UPDATE waitlist_update SET owner = $3, heartbeat_at = now()
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.update.beat
UPDATE waitlist_update SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.update.release
UPDATE waitlist_update SET owner = $3, heartbeat_at = now(),
        finished_at = CASE WHEN $4::boolean THEN now() ELSE finished_at END
      WHERE id = $1 AND owner = $2 RETURNING id;

-- JOB_SQL.update.pause
UPDATE waitlist_update SET paused_reason = $2, owner = 'paused', heartbeat_at = now()
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL RETURNING id;

-- JOB_SQL.update.resume
UPDATE waitlist_update SET paused_reason = NULL, owner = 'paused', heartbeat_at = now() - make_interval(secs => 3600)
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NOT NULL RETURNING id;

-- JOB_SQL.update.cancel
UPDATE waitlist_update SET cancelled_at = now(), finished_at = now(), owner = 'paused'
      WHERE id = $1 AND finished_at IS NULL RETURNING id;

-- JOB_SQL.update.resumable
SELECT id, owner FROM waitlist_update
      WHERE finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL
        AND ((owner = 'paused' AND coalesce(heartbeat_at < now() - interval '30 seconds', true))
          OR heartbeat_at < now() - make_interval(secs => 60))
      ORDER BY id LIMIT 20;

-- JOB_SQL.wave.lease
SELECT owner, coalesce(heartbeat_at < now() - make_interval(secs => 60), false) AS stale,
        finished_at IS NOT NULL AS finished, paused_reason, cancelled_at IS NOT NULL AS cancelled
      FROM waitlist_invite_wave WHERE id = $1;

-- JOB_SQL.wave.take
UPDATE waitlist_invite_wave SET owner = $3, heartbeat_at = now()
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.wave.beat
UPDATE waitlist_invite_wave SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.wave.release
UPDATE waitlist_invite_wave SET owner = $3, heartbeat_at = now(),
        finished_at = CASE WHEN $4::boolean THEN now() ELSE finished_at END
      WHERE id = $1 AND owner = $2 RETURNING id;

-- JOB_SQL.wave.pause
UPDATE waitlist_invite_wave SET paused_reason = $2, owner = 'paused', heartbeat_at = now()
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL RETURNING id;

-- JOB_SQL.wave.resume
UPDATE waitlist_invite_wave SET paused_reason = NULL, owner = 'paused', heartbeat_at = now() - make_interval(secs => 3600)
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NOT NULL RETURNING id;

-- JOB_SQL.wave.cancel
UPDATE waitlist_invite_wave SET cancelled_at = now(), finished_at = now(), owner = 'paused'
      WHERE id = $1 AND finished_at IS NULL RETURNING id;

-- JOB_SQL.wave.resumable
SELECT id, owner FROM waitlist_invite_wave
      WHERE finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL
        AND ((owner = 'paused' AND coalesce(heartbeat_at < now() - interval '30 seconds', true))
          OR heartbeat_at < now() - make_interval(secs => 60))
      ORDER BY id LIMIT 20;

-- JOB_SQL.webhooks.lease
SELECT owner, coalesce(heartbeat_at < now() - make_interval(secs => 60), false) AS stale,
        finished_at IS NOT NULL AS finished, paused_reason, cancelled_at IS NOT NULL AS cancelled
      FROM waitlist_webhook_drain WHERE id = $1;

-- JOB_SQL.webhooks.take
UPDATE waitlist_webhook_drain SET owner = $3, heartbeat_at = now()
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.webhooks.beat
UPDATE waitlist_webhook_drain SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND NOT (finished_at IS NOT NULL OR cancelled_at IS NOT NULL OR paused_reason IS NOT NULL) RETURNING id;

-- JOB_SQL.webhooks.release
UPDATE waitlist_webhook_drain SET owner = $3, heartbeat_at = now(),
        finished_at = CASE WHEN $4::boolean THEN now() ELSE finished_at END
      WHERE id = $1 AND owner = $2 RETURNING id;

-- JOB_SQL.webhooks.pause
UPDATE waitlist_webhook_drain SET paused_reason = $2, owner = 'paused', heartbeat_at = now()
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL RETURNING id;

-- JOB_SQL.webhooks.resume
UPDATE waitlist_webhook_drain SET paused_reason = NULL, owner = 'paused', heartbeat_at = now() - make_interval(secs => 3600)
      WHERE id = $1 AND finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NOT NULL RETURNING id;

-- JOB_SQL.webhooks.cancel
UPDATE waitlist_webhook_drain SET cancelled_at = now(), finished_at = now(), owner = 'paused'
      WHERE id = $1 AND finished_at IS NULL RETURNING id;

-- JOB_SQL.webhooks.resumable
SELECT id, owner FROM waitlist_webhook_drain
      WHERE finished_at IS NULL AND cancelled_at IS NULL AND paused_reason IS NULL
        AND ((owner = 'paused' AND coalesce(heartbeat_at < now() - interval '30 seconds', true))
          OR heartbeat_at < now() - make_interval(secs => 60))
      ORDER BY id LIMIT 20;
