-- src/server/suppression/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SUPPRESSION_SQL.suppressed
SELECT 1 FROM mail_suppression WHERE ((address_key = $1 AND NOT whole_mailbox) OR (address_key = $2 AND whole_mailbox)) AND lifted_at IS NULL LIMIT 1;

-- SUPPRESSION_SQL.suppress
INSERT INTO mail_suppression (address_key, reason, evidence, source, whole_mailbox)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (address_key) DO UPDATE SET reason = EXCLUDED.reason, evidence = EXCLUDED.evidence,
      source = EXCLUDED.source, suppressed_at = now(), lifted_at = NULL, lifted_by = NULL
    WHERE mail_suppression.lifted_at IS NOT NULL
    RETURNING address_key;

-- SUPPRESSION_SQL.softBounce
WITH pruned AS (DELETE FROM mail_soft_bounce WHERE address_key = $1
      AND at < now() - make_interval(days => 30)),
    added AS (INSERT INTO mail_soft_bounce (address_key, evidence) VALUES ($1, $2) RETURNING at)
    SELECT 1 + count(*)::int AS bounces FROM mail_soft_bounce b
    WHERE b.address_key = $1 AND b.at >= now() - make_interval(days => 30)
      AND b.at > coalesce((SELECT lifted_at FROM mail_suppression s WHERE s.address_key = $1), '-infinity');

-- SUPPRESSION_SQL.sent
INSERT INTO mail_sent (message_id, provider_id, mailbox_key, kind, update_id, address_key)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (message_id) DO UPDATE SET provider_id = EXCLUDED.provider_id, sent_at = now();

-- SUPPRESSION_SQL.message
SELECT address_key, mailbox_key, update_id FROM mail_sent
    WHERE message_id = ANY($1::text[]) OR provider_id = ANY($1::text[]) ORDER BY sent_at DESC LIMIT 1;

-- SUPPRESSION_SQL.event
INSERT INTO mail_event (provider, event_id, kind, address_key, update_id, evidence)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id;

-- SUPPRESSION_SQL.get
SELECT reason, evidence, source, suppressed_at, lifted_at, lifted_by FROM mail_suppression
    WHERE ((address_key = $1 AND NOT whole_mailbox) OR (address_key = $2 AND whole_mailbox)) ORDER BY lifted_at IS NULL DESC, whole_mailbox LIMIT 1;

-- SUPPRESSION_SQL.lift
UPDATE mail_suppression SET lifted_at = now(), lifted_by = $3 WHERE ((address_key = $1 AND NOT whole_mailbox) OR (address_key = $2 AND whole_mailbox)) AND lifted_at IS NULL
    RETURNING address_key;

-- SUPPRESSION_SQL.reputation
SELECT (SELECT count(*)::int FROM waitlist_update_recipient WHERE update_id = $1 AND state = 'sent') AS sent,
    count(*) FILTER (WHERE kind = 'hard_bounce')::int AS hard,
    count(*) FILTER (WHERE kind = 'soft_bounce')::int AS soft,
    count(*) FILTER (WHERE kind = 'complaint')::int AS complaints
    FROM mail_event WHERE update_id = $1;

-- SUPPRESSION_SQL.withdraw
UPDATE waitlist SET updates_consent = false, updates_consent_at = now(), updates_consent_words = $2
    WHERE (address_key = $1 OR mailbox_key = $3) AND updates_consent IS DISTINCT FROM false RETURNING id;

-- SUPPRESSION_SQL.prune
DELETE FROM mail_sent WHERE sent_at < now() - interval '90 days';
