-- src/server/console/jobs/job-progress.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- JOB_PROGRESS_SQL.update
SELECT j.id, j.subject, j.author AS started_by, j.created_at AS started_at, j.heartbeat_at,
      CASE WHEN j.cancelled_at IS NOT NULL THEN 'cancelled' WHEN j.finished_at IS NOT NULL THEN 'done'
    WHEN j.paused_reason IS NOT NULL THEN 'paused' WHEN j.owner = 'paused' OR j.owner IS NULL THEN 'waiting'
    WHEN j.heartbeat_at < $2::timestamptz - make_interval(secs => 60) THEN 'stalled'
    ELSE 'running' END AS state, COALESCE(j.cancelled_at, j.finished_at) AS ended_at, j.paused_reason, j.sent, j.failed,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = j.id) AS total,
      (SELECT count(*)::int FROM waitlist_update_recipient r WHERE r.update_id = j.id AND r.state = 'skipped') AS skipped,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = j.id AND r.state = 'queued' AND r.tries > 0) AS deferred,
      (SELECT count(*)::int FROM waitlist_update_recipient r
        WHERE r.update_id = j.id AND r.state IN ('queued', 'attempted')) AS left
    FROM waitlist_update j WHERE j.id = $1;

-- JOB_PROGRESS_SQL.wave
SELECT j.id, NULL AS subject, j.size, j.author AS started_by, j.started_at, j.heartbeat_at,
      CASE WHEN j.cancelled_at IS NOT NULL THEN 'cancelled' WHEN j.finished_at IS NOT NULL THEN 'done'
    WHEN j.paused_reason IS NOT NULL THEN 'paused' WHEN j.owner = 'paused' OR j.owner IS NULL THEN 'waiting'
    WHEN j.heartbeat_at < $2::timestamptz - make_interval(secs => 60) THEN 'stalled'
    ELSE 'running' END AS state, COALESCE(j.cancelled_at, j.finished_at) AS ended_at, j.paused_reason, j.invited AS sent, j.refused AS failed, 0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist w WHERE w.invite_wave_id = j.id AND w.status = 'confirmed') AS left
    FROM waitlist_invite_wave j WHERE j.id = $1;

-- JOB_PROGRESS_SQL.webhooks
SELECT j.id, NULL AS subject, j.author AS started_by, j.created_at AS started_at,
      j.heartbeat_at, CASE WHEN j.cancelled_at IS NOT NULL THEN 'cancelled' WHEN j.finished_at IS NOT NULL THEN 'done'
    WHEN j.paused_reason IS NOT NULL THEN 'paused' WHEN j.owner = 'paused' OR j.owner IS NULL THEN 'waiting'
    WHEN j.heartbeat_at < $2::timestamptz - make_interval(secs => 60) THEN 'stalled'
    ELSE 'running' END AS state, COALESCE(j.cancelled_at, j.finished_at) AS ended_at, j.paused_reason, j.total,
      (SELECT count(*)::int FROM waitlist_webhook_event e WHERE e.state = 'delivered' AND e.delivered_at >= j.created_at) AS sent,
      (SELECT count(*)::int FROM waitlist_webhook_event e
        WHERE e.state <> 'delivered' AND e.last_attempt_at >= j.created_at) AS failed,
      0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist_webhook_event e WHERE e.state = 'pending' AND e.next_attempt_at <= now()) AS left
    FROM waitlist_webhook_drain j WHERE j.id = $1;

-- JOB_PROGRESS_SQL.import
SELECT j.id, j.file_name AS subject, j.actor AS started_by, j.started_at, j.heartbeat_at,
      CASE WHEN j.cancelled_at IS NOT NULL THEN 'cancelled' WHEN j.finished_at IS NOT NULL THEN 'done'
    WHEN j.paused_reason IS NOT NULL THEN 'paused' WHEN j.owner = 'paused' OR j.owner IS NULL THEN 'waiting'
    WHEN j.heartbeat_at < $2::timestamptz - make_interval(secs => 60) THEN 'stalled'
    ELSE 'running' END AS state, COALESCE(j.cancelled_at, j.finished_at) AS ended_at, j.paused_reason,
      (SELECT count(*)::int FROM waitlist_import_row r WHERE r.import_id = j.id AND r.outcome = 'added'
        AND r.mailed_at IS NOT NULL) AS sent, 0 AS failed, 0 AS skipped, 0 AS deferred,
      (SELECT count(*)::int FROM waitlist_import_row r WHERE r.import_id = j.id AND r.outcome = 'added'
        AND r.mailed_at IS NULL) AS left
    FROM waitlist_import j WHERE j.id = $1;

-- JOB_PROGRESS_SQL.open
SELECT 'update' AS kind, id FROM waitlist_update WHERE finished_at IS NULL
  UNION ALL SELECT 'wave', id FROM waitlist_invite_wave WHERE finished_at IS NULL
  UNION ALL SELECT 'webhooks', id FROM waitlist_webhook_drain WHERE finished_at IS NULL
  UNION ALL SELECT 'import', id FROM waitlist_import WHERE finished_at IS NULL AND rows_done_at IS NOT NULL
  ORDER BY 1, 2 DESC LIMIT 20;
