-- src/server/referrals/mailbox-keys.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- MAILBOX_KEYS_SQL.unkeyed
SELECT id, name, email, message, organization, why, connect, answers, key_id, sealed FROM waitlist WHERE address_key IS NULL AND id > $2 ORDER BY id LIMIT $1;

-- MAILBOX_KEYS_SQL.write
UPDATE waitlist w SET mailbox_key = coalesce(w.mailbox_key, k.key), address_key = k.address
    FROM unnest($1::bigint[], $2::text[], $3::text[]) AS k(id, key, address)
    WHERE w.id = k.id AND w.address_key IS NULL;
