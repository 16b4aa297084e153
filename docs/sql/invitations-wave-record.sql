-- src/server/invitations/wave-record.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SQL.claim
INSERT INTO waitlist_invite_wave (owner, size, ticket) VALUES ($1, $2, $3)
    ON CONFLICT (ticket) DO NOTHING RETURNING id;

-- SQL.ofTicket
SELECT id FROM waitlist_invite_wave WHERE ticket = $1;

-- SQL.record
UPDATE waitlist_invite_wave SET invited = invited + $2, refused = refused + $3, stopped = stopped OR $4,
      file_people = file_people || $5::bigint[], file_pending = file_pending OR cardinality($5::bigint[]) > 0
    WHERE id = $1;

-- SQL.startedBy
UPDATE waitlist_invite_wave SET author = $2 WHERE id = $1;

-- SQL.read
SELECT invited, refused, stopped, finished_at IS NOT NULL AS finished FROM waitlist_invite_wave WHERE id = $1;

-- SQL.pendingFiles
SELECT v.id, (SELECT count(*)::int FROM waitlist w
        WHERE w.id = ANY(v.file_people) AND w.status = 'invited') AS people
    FROM waitlist_invite_wave v WHERE v.file_pending ORDER BY v.id;

-- SQL.filePeople
SELECT w.id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist_invite_wave v JOIN waitlist w ON w.id = ANY(v.file_people)
    WHERE v.id = $1 AND v.file_pending AND w.status = 'invited' ORDER BY w.created_at, w.id;

-- SQL.reissue
UPDATE waitlist w SET invite_code_hash = c.hash, invite_reminder_code_hash = NULL, invite_expires_at = now() + make_interval(days => $2::int)
    FROM unnest($1::bigint[], $3::text[]) AS c(id, hash) WHERE w.id = c.id AND w.status = 'invited' RETURNING w.id;

-- SQL.arrived
UPDATE waitlist_invite_wave SET file_pending = false WHERE id = $1 AND file_pending RETURNING id;

-- SQL.named
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed, created_at, source, referrals FROM waitlist WHERE id = ANY($1::bigint[]);
