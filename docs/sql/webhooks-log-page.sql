-- src/server/webhooks/log-page.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- LOG_PAGE_SQL.older
SELECT id, type, waitlist_id, person, occurred_at, state, attempts,
      CASE WHEN state = 'pending' THEN next_attempt_at END AS next_attempt_at, last_status, last_answer, last_error,
    (extract(epoch FROM occurred_at) * 1000000)::bigint::text AS at_us
  FROM waitlist_webhook_event WHERE ($1::text IS NULL OR state = $1::text) AND ($3::bigint IS NULL OR occurred_at <= timestamptz 'epoch' + $3::bigint * interval '1 microsecond' AND (occurred_at, id) < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4::text))
  ORDER BY occurred_at DESC, id DESC LIMIT $2;

-- LOG_PAGE_SQL.newer
SELECT id, type, waitlist_id, person, occurred_at, state, attempts,
      CASE WHEN state = 'pending' THEN next_attempt_at END AS next_attempt_at, last_status, last_answer, last_error,
    (extract(epoch FROM occurred_at) * 1000000)::bigint::text AS at_us
  FROM waitlist_webhook_event WHERE ($1::text IS NULL OR state = $1::text) AND ($3::bigint IS NULL OR occurred_at >= timestamptz 'epoch' + $3::bigint * interval '1 microsecond' AND (occurred_at, id) > (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4::text))
  ORDER BY occurred_at ASC, id ASC LIMIT $2;
