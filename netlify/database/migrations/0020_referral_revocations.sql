-- 0020: a referral taken back leaves a trace for the referrer (the console's person page: person-timeline.ts).
--
-- A counted referral is taken back when the person it brought leaves the list: their waitlist_referral row goes
-- with them (an erasure keeps nothing of theirs), so nothing of it stayed, and the referrer's timeline lost a
-- referral their webhooks had announced (waitlist.referred) and never showed the waitlist.referral_revoked that
-- followed. This keeps, for the referrer alone, when it had counted and when it was taken back; nothing of the
-- person who left. It goes with the referrer (ON DELETE CASCADE).
CREATE TABLE waitlist_referral_revoked (
  referrer_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  counted_at timestamptz NULL,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX waitlist_referral_revoked_referrer_idx ON waitlist_referral_revoked (referrer_id);

-- As in 0011, and the trace: only for a referrer still on the list (one leaving in the same statement keeps none).
CREATE OR REPLACE FUNCTION waitlist_referral_taken_back() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE waitlist w SET referrals = w.referrals - t.n
  FROM (SELECT referrer_id, count(*)::int AS n FROM referral_removed
        WHERE outcome = 'counted' AND referrer_id IS NOT NULL GROUP BY referrer_id ORDER BY referrer_id) t
  WHERE w.id = t.referrer_id;
  INSERT INTO waitlist_referral_revoked (referrer_id, counted_at)
  SELECT r.referrer_id, r.counted_at FROM referral_removed r JOIN waitlist w ON w.id = r.referrer_id
  WHERE r.outcome = 'counted' ORDER BY r.referrer_id, r.counted_at;
  RETURN NULL;
END
$fn$;

-- Referrals taken back before this migration, where webhooks were on: from their events (when each had counted
-- is not known).
INSERT INTO waitlist_referral_revoked (referrer_id, revoked_at)
SELECT e.waitlist_id, e.occurred_at FROM waitlist_webhook_event e JOIN waitlist w ON w.id = e.waitlist_id
WHERE e.type = 'waitlist.referral_revoked' ORDER BY e.occurred_at;
