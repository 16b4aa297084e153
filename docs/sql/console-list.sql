-- src/server/console/list.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- LIST_SQL.older
SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, key_id, sealed,
  status, source, referral_code, referrals FROM waitlist
    WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[])) AND ($5::bigint IS NULL OR (created_at, id) < (timestamptz 'epoch' + $5::bigint * interval '1 microsecond', $6::bigint))
    ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $7;

-- LIST_SQL.newer
SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, key_id, sealed,
  status, source, referral_code, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[])) AND (created_at, id) > (timestamptz 'epoch' + $5::bigint * interval '1 microsecond', $6::bigint)
    ORDER BY created_at, id LIMIT $1;

-- LIST_SQL.matching
SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[])) LIMIT $1) m;

-- LIST_SQL.partIndex
SELECT a.amname AS method FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE c.oid = to_regclass('waitlist_email_part_idx');
