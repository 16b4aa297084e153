-- src/server/links/consent-store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- CONSENT_SQL.issueConfirmation
WITH target AS (
    UPDATE waitlist SET confirmation_sent_at = now()
    WHERE lower(email) = ANY($1::text[]) AND status = 'pending'
      AND (confirmation_sent_at IS NULL OR confirmation_sent_at <= now() - make_interval(mins => 10))
    RETURNING id
  ), tokens AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT t.hash, target.id, t.purpose, now() + make_interval(days => t.days)
    FROM target, (VALUES ($2::text, 'confirm', 7), ($3::text, 'remove', 30)) AS t(hash, purpose, days)
  )
  SELECT id FROM target;

-- CONSENT_SQL.issueRemoval
WITH target AS (
    UPDATE waitlist SET removal_sent_at = now()
    WHERE lower(email) = ANY($1::text[])
      AND (removal_sent_at IS NULL OR removal_sent_at <= now() - make_interval(mins => 10))
    RETURNING id
  ), tokens AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT $2::text, id, 'remove', now() + make_interval(days => 30) FROM target
  )
  SELECT id FROM target;

-- CONSENT_SQL.unsend
WITH dropped AS (DELETE FROM waitlist_token WHERE token_hash = ANY($2::text[]))
  UPDATE waitlist SET confirmation_sent_at = CASE WHEN $3 = 'confirm' THEN NULL ELSE confirmation_sent_at END,
    removal_sent_at = CASE WHEN $3 = 'remove' THEN NULL ELSE removal_sent_at END
  WHERE id = $1;

-- CONSENT_SQL.confirm
WITH token AS (
    SELECT t.waitlist_id, t.used_at IS NOT NULL AS used, t.expires_at <= now() AS expired, w.status
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    WHERE t.token_hash = $1 AND t.purpose = 'confirm'
  ), spent AS (
    UPDATE waitlist_token SET used_at = now()
    WHERE token_hash = $1 AND purpose = 'confirm' AND used_at IS NULL AND expires_at > now()
    RETURNING waitlist_id
  ), confirmed AS (
    UPDATE waitlist SET status = 'confirmed', confirmed_at = now()
    WHERE id IN (SELECT waitlist_id FROM spent) AND status = 'pending'
    RETURNING id, name, email, message, organization, why, connect, answers, key_id, sealed
  ), status_link AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT $2::text, id, 'status', 'infinity' FROM confirmed WHERE $2::text IS NOT NULL
  ), 
  referral AS (
    SELECT r.referred_id, r.referrer_id, r.mailbox_key,
      -- Another row of the mailbox is on the list, confirmed (a counted referral always is: its row goes with it).
      EXISTS (SELECT 1 FROM waitlist o WHERE o.mailbox_key = r.mailbox_key AND o.id <> r.referred_id
                AND o.status <> 'pending') AS duplicate
    FROM waitlist_referral r JOIN confirmed ON confirmed.id = r.referred_id
    WHERE r.outcome = 'pending'
  ), bumped AS (
    UPDATE waitlist w SET referrals = w.referrals + 1,
      referrals_today = CASE WHEN w.referrals_day = (now() AT TIME ZONE 'UTC')::date THEN w.referrals_today + 1 ELSE 1 END,
      referrals_day = (now() AT TIME ZONE 'UTC')::date
    FROM referral WHERE w.id = referral.referrer_id AND NOT referral.duplicate AND $3::int > 0
      AND (w.referrals_day IS DISTINCT FROM (now() AT TIME ZONE 'UTC')::date OR w.referrals_today < $3::int)
    RETURNING w.id
  ), recorded AS (
    UPDATE waitlist_referral r SET
      outcome = CASE WHEN referral.referrer_id IS NULL THEN 'referrer-left'
        WHEN referral.duplicate THEN 'duplicate'
        WHEN EXISTS (SELECT 1 FROM bumped) THEN 'counted'
        WHEN NOT EXISTS (SELECT 1 FROM waitlist w WHERE w.id = referral.referrer_id) THEN 'referrer-left'
        ELSE 'over-limit' END,
      counted_at = CASE WHEN EXISTS (SELECT 1 FROM bumped) THEN now() END
    FROM referral WHERE r.referred_id = referral.referred_id
    RETURNING r.outcome
  )
  SELECT (SELECT count(*)::int FROM confirmed) AS confirmed, token.used, token.expired, token.status,
    (SELECT name FROM confirmed) AS name, (SELECT email FROM confirmed) AS email, (SELECT message FROM confirmed) AS message, (SELECT organization FROM confirmed) AS organization, (SELECT why FROM confirmed) AS why, (SELECT connect FROM confirmed) AS connect, (SELECT answers FROM confirmed) AS answers, (SELECT key_id FROM confirmed) AS key_id, (SELECT sealed FROM confirmed) AS sealed,
    (SELECT outcome FROM recorded) AS referral
  FROM (SELECT 1) AS one LEFT JOIN token ON true;

-- CONSENT_SQL.remove
WITH token AS (
    SELECT waitlist_id, expires_at <= now() AS expired FROM waitlist_token WHERE token_hash = $1 AND purpose = 'remove'
  ), removed AS (
    DELETE FROM waitlist WHERE id IN (SELECT waitlist_id FROM token WHERE NOT expired) RETURNING id
  )
  SELECT (SELECT count(*)::int FROM removed) AS removed, (SELECT bool_or(expired) FROM token) AS expired;

-- CONSENT_SQL.mailboxSent
WITH hit AS (
    INSERT INTO waitlist_mailbox_day (mailbox_key, day) VALUES ($1, current_date)
    ON CONFLICT (mailbox_key, day) DO UPDATE SET sent = waitlist_mailbox_day.sent + 1
    RETURNING sent
  ), pruned AS (
    DELETE FROM waitlist_mailbox_day WHERE day < current_date - 1 AND (SELECT sent FROM hit) = 1
  )
  SELECT sent FROM hit;
