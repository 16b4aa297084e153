-- src/server/console/person/person-data.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- PERSON_SQL.person
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed, w.status, w.created_at, w.confirmed_at, w.invited_at, w.joined_at,
      w.source, w.medium, w.campaign, w.referrer, w.page, w.terms_version, w.updates_consent, w.updates_consent_at,
      w.updates_consent_words, w.referral_code, w.referrals, w.choices, r.outcome AS referral_outcome,
      r.referrer_id AS referred_by
    FROM waitlist w LEFT JOIN waitlist_referral r ON r.referred_id = w.id
    WHERE w.id = $1;

-- PERSON_SQL.referrer
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed, referral_code FROM waitlist WHERE id = $1;

-- PERSON_SQL.counted
SELECT r.referred_id, r.counted_at, p.name, p.email, p.message, p.organization, p.why, p.connect, p.answers, p.key_id, p.sealed FROM waitlist_referral r
    JOIN waitlist p ON p.id = r.referred_id
    WHERE r.referrer_id = $1 AND r.outcome = 'counted' ORDER BY r.counted_at DESC LIMIT $2;

-- PERSON_SQL.revoked
SELECT counted_at, revoked_at FROM waitlist_referral_revoked WHERE referrer_id = $1
    ORDER BY revoked_at DESC LIMIT $2;

-- PERSON_SQL.revokedCount
SELECT count(*)::int AS n FROM waitlist_referral_revoked WHERE referrer_id = $1;

-- PERSON_SQL.updates
SELECT u.subject, r.state, r.done_at FROM waitlist_update_recipient r JOIN waitlist_update u ON u.id = r.update_id
    WHERE r.waitlist_id = $1 ORDER BY u.id;
