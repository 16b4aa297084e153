-- src/server/import/sql.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- IMPORT_SQL.queuedEntry
SELECT id FROM waitlist_audit WHERE action = 'import' AND details ->> 'phase' = 'started'
    AND details ->> 'import' = $1 ORDER BY id DESC LIMIT 1;

-- IMPORT_SQL.find
SELECT id, file_name, format, consent, source, started_at, rows_done_at, finished_at, cancelled_at
    FROM waitlist_import WHERE file_hash = $1;

-- IMPORT_SQL.byId
SELECT file_hash, file_name, consent, source, actor, rows_done_at FROM waitlist_import WHERE id = $1;

-- IMPORT_SQL.queue
INSERT INTO waitlist_import (file_hash, file_name, format, consent, source, actor, owner, heartbeat_at)
    VALUES ($1, $2, '', $3, $4, $5, $6, now() - interval '1 hour')
    ON CONFLICT (file_hash) DO UPDATE SET file_hash = EXCLUDED.file_hash RETURNING id;

-- IMPORT_SQL.start
INSERT INTO waitlist_import (file_hash, file_name, format, consent, source, actor)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (file_hash) DO UPDATE SET file_hash = EXCLUDED.file_hash RETURNING id;

-- IMPORT_SQL.add
WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::int[], $26::int[]) AS i(name, email, message, organization, why, connect, answers, key_id, sealed, terms_version, status, source, medium, campaign, referrer, page, mailbox_key, address_key, choices, created_at, confirmed_at, k1, k2, k3, part, line)),
    added AS (INSERT INTO waitlist (name, email, message, organization, why, connect, answers, key_id, sealed, terms_version, status, source, medium, campaign, referrer, page, mailbox_key, address_key, choices, created_at, confirmed_at)
      SELECT i.name, i.email, i.message, i.organization, i.why, i.connect, i.answers::jsonb, i.key_id, i.sealed, i.terms_version, i.status, i.source, i.medium, i.campaign, i.referrer, i.page, i.mailbox_key, i.address_key, i.choices::jsonb, i.created_at::timestamptz, i.confirmed_at::timestamptz FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM waitlist w WHERE lower(w.email) = ANY(ARRAY[i.k2, i.k3]))
        AND ($27::boolean OR NOT EXISTS (SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0))
      ORDER BY i.created_at::timestamptz, i.part, i.line
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id, lower(email) AS k),
    evidence AS (SELECT * FROM unnest($28::int[], $29::int[],
      $30::text[], $31::timestamptz[]) AS e(part, line, what, at)),
    recorded AS (INSERT INTO waitlist_import_row (import_id, part, line, outcome, waitlist_id, consent_evidence, consent_at)
      SELECT $32::bigint, i.part, i.line, CASE WHEN a.id IS NULL THEN 'existing' ELSE 'added' END, a.id,
        e.what, e.at
      FROM input i LEFT JOIN added a ON a.k = i.k1 LEFT JOIN evidence e ON e.part = i.part AND e.line = i.line
      ON CONFLICT (import_id, part, line) DO NOTHING RETURNING outcome)
    SELECT count(*) FILTER (WHERE outcome = 'added')::int AS added,
      count(*) FILTER (WHERE outcome = 'existing')::int AS existing FROM recorded;

-- IMPORT_SQL.record
INSERT INTO waitlist_import_row (import_id, part, line, outcome, reason)
    SELECT $1, r.part, r.line, r.outcome, r.reason
    FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS r(part, line, outcome, reason)
    ON CONFLICT (import_id, part, line) DO NOTHING;

-- IMPORT_SQL.listed
SELECT lower(email) AS k FROM waitlist WHERE lower(email) = ANY($1::text[]);

-- IMPORT_SQL.rowsDone
UPDATE waitlist_import SET rows_done_at = coalesce(rows_done_at, now()), format = $3,
      owner = CASE WHEN consent = 'ask' THEN $2 ELSE owner END,
      heartbeat_at = CASE WHEN consent = 'ask' THEN now() - interval '1 hour' ELSE heartbeat_at END,
      finished_at = CASE WHEN consent = 'ask' THEN finished_at ELSE coalesce(finished_at, now()) END
    WHERE id = $1 AND rows_done_at IS NULL RETURNING id;

-- IMPORT_SQL.counts
SELECT count(*) FILTER (WHERE outcome = 'added')::int AS added,
      count(*) FILTER (WHERE outcome = 'existing')::int AS existing,
      count(*) FILTER (WHERE outcome = 'suppressed')::int AS suppressed,
      count(*) FILTER (WHERE outcome = 'refused')::int AS refused,
      count(*) FILTER (WHERE outcome = 'added' AND mailed_at IS NULL)::int AS unmailed
    FROM waitlist_import_row WHERE import_id = $1;

-- IMPORT_SQL.unmailed
SELECT r.part, r.line, w.status, w.name, w.email, w.message, w.organization, w.why, w.connect,
      w.key_id, w.sealed
    FROM waitlist_import_row r LEFT JOIN waitlist w ON w.id = r.waitlist_id
    WHERE r.import_id = $1 AND r.outcome = 'added' AND r.mailed_at IS NULL
    ORDER BY r.part, r.line LIMIT $2;

-- IMPORT_SQL.claim
UPDATE waitlist_import_row SET mailed_at = now()
    WHERE import_id = $1 AND part = $2 AND line = $3 AND mailed_at IS NULL RETURNING line;
