-- src/server/console/people/matching.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- MATCHING_SQL.invitable
SELECT id FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed ORDER BY created_at, id LIMIT $1;

-- MATCHING_SQL.invitableCount
SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed LIMIT $1) AS s;

-- MATCHING_SQL.writable
SELECT id FROM waitlist WHERE ($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ($6::int = 0 OR ($6::int = 1 AND source = $7::text) OR ($6::int = 2 AND source IS NULL)) AND ($8::int = 0 OR ($8::int = 1 AND medium = $9::text) OR ($8::int = 2 AND medium IS NULL)) AND ($10::int = 0 OR ($10::int = 1 AND campaign = $11::text) OR ($10::int = 2 AND campaign IS NULL)) AND ($12::int = 0 OR ($12::int = 1 AND referrer = $13::text) OR ($12::int = 2 AND referrer IS NULL))
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[])) AND status = 'confirmed' AND updates_consent
    ORDER BY id LIMIT $1;

-- MATCHING_SQL.split
SELECT a.question, v.value, count(*)::int AS count FROM waitlist w CROSS JOIN LATERAL jsonb_each(coalesce(w.choices, '{}'::jsonb))
      AS a(question, answer)
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE jsonb_typeof(a.answer) WHEN 'array' THEN a.answer
      ELSE jsonb_build_array(a.answer) END) AS v(value)
    WHERE w.id = ANY($1::bigint[]) AND a.question = ANY($2::text[]) GROUP BY a.question, v.value;

-- MATCHING_SQL.named
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed, created_at FROM waitlist WHERE id = ANY($1::bigint[]) ORDER BY created_at, id;
