-- src/server/referrals/count.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- DISPOSABLE_SQL.pending
SELECT w.id, w.name, w.email, w.message, w.organization, w.why, w.connect, w.answers, w.key_id, w.sealed
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    JOIN waitlist_referral r ON r.referred_id = w.id AND r.outcome = 'pending'
    WHERE t.token_hash = $1 AND t.purpose = 'confirm' AND t.used_at IS NULL AND t.expires_at > now()
      AND w.status = 'pending';

-- DISPOSABLE_SQL.mark
UPDATE waitlist_referral SET outcome = 'disposable' WHERE referred_id = $1 AND outcome = 'pending';
