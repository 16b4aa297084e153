-- src/server/referrals/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- REFERRAL_SQL.referrer
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist WHERE referral_code = $1;

-- REFERRAL_SQL.status
SELECT w.id, w.status, w.invited_at, w.joined_at, w.invite_expires_at, w.referral_code, w.referrals,
      w.updates_consent
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    WHERE t.token_hash = $1 AND t.purpose = 'status' AND t.expires_at > now();

-- REFERRAL_SQL.statusById
SELECT id, status, invited_at, joined_at, invite_expires_at, referral_code, referrals, updates_consent
    FROM waitlist WHERE id = $1 AND status <> 'pending';

-- REFERRAL_SQL.issue
WITH target AS (
      UPDATE waitlist SET status_sent_at = now()
      WHERE lower(email) = ANY($1::text[]) AND status <> 'pending'
        AND (status_sent_at IS NULL OR status_sent_at <= now() - make_interval(mins => 10))
      RETURNING id
    ), token AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $2::text, id, 'status', 'infinity' FROM target
    )
    SELECT id FROM target;

-- REFERRAL_SQL.unsend
WITH dropped AS (DELETE FROM waitlist_token WHERE token_hash = ANY($2::text[]))
    UPDATE waitlist SET status_sent_at = NULL WHERE id = $1;

-- REFERRAL_SQL.leave
DELETE FROM waitlist WHERE id = (
      SELECT waitlist_id FROM waitlist_token WHERE token_hash = $1 AND purpose = 'status'
    ) RETURNING id;

-- REFERRAL_SQL.leaveById
DELETE FROM waitlist WHERE id = $1 AND status <> 'pending' RETURNING id;

-- REFERRAL_SQL.totals
SELECT count(*)::bigint AS counted,
      count(*) FILTER (WHERE counted_at > now() - make_interval(days => $1::int))::bigint AS recent
    FROM waitlist_referral WHERE outcome = 'counted';

-- REFERRAL_SQL.top
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed, w.referral_code, t.counted
    FROM (SELECT referrer_id, count(*)::int AS counted FROM waitlist_referral
          WHERE outcome = 'counted' AND counted_at > now() - make_interval(days => $1::int) AND referrer_id IS NOT NULL
          GROUP BY referrer_id ORDER BY count(*) DESC, referrer_id LIMIT $2) t
    JOIN waitlist w ON w.id = t.referrer_id ORDER BY t.counted DESC, w.id;
