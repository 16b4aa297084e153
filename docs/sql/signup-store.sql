-- src/server/signup/store.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SIGNUP_SQL.insert
WITH added AS (INSERT INTO waitlist (name, email, message, organization, why, connect, answers, key_id, sealed, terms_version, status, source, medium, campaign, referrer, page, mailbox_key, address_key, choices)
      SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::text, $9::text, $10::text, $11::text, $12::text, $13::text, $14::text, $15::text, $16::text, $17::text, $18::text, $19::jsonb 
      WHERE NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY($20::text[]))
      AND ($21::boolean OR NOT EXISTS (SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id), referral AS (
  INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key, outcome)
  SELECT id, $22::bigint, $17::text, $23::text FROM added WHERE $22::bigint IS NOT NULL)
    SELECT (SELECT count(*)::int FROM added) AS added, EXISTS (SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0) AS sealed_rows;

-- SIGNUP_SQL.hitAndInsert
WITH hit AS (INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts), previous AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts), pruned AS (DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz - interval '1 hour' AND (SELECT attempts FROM hit) = 1), verdict AS (SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous),
    retry AS (
  SELECT greatest(1, ceil((CASE WHEN a + 1 <= m AND here < w THEN here WHEN m >= 1 AND later < w THEN w + later
      ELSE 2 * w END - e) / 1000))::int AS seconds
  FROM (SELECT w, e, a, m,
      CASE WHEN p = 0 THEN e ELSE greatest(e, w * (1 - (m - a - 1) / p)) END AS here,
      CASE WHEN a <= m - 1 OR a = 0 THEN 0 ELSE w * (1 - (m - 1) / a) END AS later
    FROM (SELECT len.w, round((1 - $5::float8) * len.w) AS e, (hit.attempts)::float8 AS a,
        previous.attempts::float8 AS p, $4::float8 AS m
      FROM hit, previous, (SELECT extract(epoch FROM $2::timestamptz - $3::timestamptz)::float8 * 1000 AS w) len
    ) counts
  ) times), added AS (INSERT INTO waitlist (name, email, message, organization, why, connect, answers, key_id, sealed, terms_version, status, source, medium, campaign, referrer, page, mailbox_key, address_key, choices)
      SELECT $6::text, $7::text, $8::text, $9::text, $10::text, $11::text, $12::jsonb, $13::text, $14::text, $15::text, $16::text, $17::text, $18::text, $19::text, $20::text, $21::text, $22::text, $23::text, $24::jsonb FROM verdict WHERE verdict.allowed
      AND NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY($25::text[]))
      AND ($26::boolean OR NOT EXISTS (SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id),
    referral AS (
  INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key, outcome)
  SELECT id, $27::bigint, $22::text, $28::text FROM added WHERE $27::bigint IS NOT NULL)
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after,
      (SELECT count(*)::int FROM added) AS added,
      EXISTS (SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0) AS sealed_rows;
