-- src/server/console/people/list.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- LIST_SQL.newestFirst
SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND ($19::bigint IS NULL OR (created_at, id) < (timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint))
    ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $18;

-- LIST_SQL.oldestFirst
SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND ($19::bigint IS NULL OR (created_at, id) > (timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint))
    ORDER BY created_at, id LIMIT $1 OFFSET $18;

-- LIST_SQL.mostReferrals
SELECT * FROM (
      (SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND referrals > 0
        AND ($21::int IS NULL OR (referrals, created_at, id) < ($21::int, timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint))
        ORDER BY referrals DESC, created_at DESC, id DESC LIMIT $1::bigint + $18::bigint)
      UNION ALL
      (SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND referrals = 0
        AND ($21::int IS NULL OR $21::int > 0 OR (created_at, id) < (timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint))
        ORDER BY created_at DESC, id DESC LIMIT $1::bigint + $18::bigint)
    ) p ORDER BY referrals DESC, created_at DESC, id DESC LIMIT $1 OFFSET $18;

-- LIST_SQL.fewestReferrals
SELECT * FROM (
      (SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND referrals = 0 AND $21::int = 0 AND (created_at, id) > (timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint)
        ORDER BY created_at, id LIMIT $1::bigint + $18::bigint)
      UNION ALL
      (SELECT id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, name, email, message, organization, why, connect, answers, key_id, sealed,
  status, source, medium, campaign, referrer, referrals FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND referrals > 0
        AND (referrals, created_at, id) > ($21::int, timestamptz 'epoch' + $19::bigint * interval '1 microsecond', $20::bigint)
        ORDER BY referrals, created_at, id LIMIT $1::bigint + $18::bigint)
    ) p ORDER BY referrals, created_at, id LIMIT $1 OFFSET $18;

-- LIST_SQL.matching
SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) LIMIT $1) m;

-- LIST_SQL.partIndex
SELECT a.amname AS method FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE c.oid = to_regclass('waitlist_email_part_idx');
