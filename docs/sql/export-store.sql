-- src/server/export/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- EXPORT_SQL.list
SELECT id, created_at, name, email, message, organization, why, connect, answers, key_id, sealed, status, invited_at, joined_at, source, medium, campaign, referrer, page,
      terms_version, confirmed_at, referral_code, referrals, choices, ref.ref_email, ref.ref_key_id, ref.ref_sealed
    FROM waitlist
    LEFT JOIN LATERAL (
      SELECT r.email AS ref_email, r.key_id AS ref_key_id, r.sealed AS ref_sealed
      FROM waitlist_referral rr JOIN waitlist r ON r.id = rr.referrer_id WHERE rr.referred_id = waitlist.id
      -- One row at most (the primary key): LIMIT makes the planner look each one up, never merge-join the table.
      LIMIT 1
    ) ref ON true
    WHERE id > $1::bigint AND ($5::bigint IS NULL OR id <= $5::bigint)
      AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed')
      AND ($6::boolean IS NOT TRUE OR NOT mail_suppressed)
    ORDER BY id LIMIT $4::int;

-- EXPORT_SQL.suppressed
SELECT count(*)::int AS n FROM waitlist WHERE mail_suppressed AND id > $1::bigint
      AND ($4::bigint IS NULL OR id <= $4::bigint) AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed');
