-- src/server/console/person.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- PERSON_SQL.person
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.key_id, w.sealed, w.status, w.created_at, w.confirmed_at, w.invited_at, w.joined_at, w.source, w.medium,
      w.campaign, w.referrer, w.page, w.terms_version, w.updates_consent, w.updates_consent_at,
      w.updates_consent_words, w.referral_code, w.referrals, r.outcome AS referral_outcome, f.referral_code AS referred_by_code
    FROM waitlist w LEFT JOIN waitlist_referral r ON r.referred_id = w.id LEFT JOIN waitlist f ON f.id = r.referrer_id
    WHERE w.id = $1;

-- PERSON_SQL.referrals
SELECT counted_at FROM waitlist_referral WHERE referrer_id = $1 AND outcome = 'counted' ORDER BY counted_at;

-- PERSON_SQL.updates
SELECT u.subject, r.state, r.done_at FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
    WHERE r.waitlist_id = $1 ORDER BY u.id;
