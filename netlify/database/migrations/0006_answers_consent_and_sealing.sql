-- 0006: each optional answer in its own column (beside the combined message, which stays as docs/brief.md defines
-- it), the version of the terms each person agreed to, and rows sealed with DATA_KEY. Idempotent; existing rows
-- keep their values (their answers stay in message only, their terms version unknown).
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS organization text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS why text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS connect text NULL;
-- A hash of the Terms of Service the site served when the person agreed (src/server/terms-version.ts); the time
-- they agreed is created_at, the time they confirmed their address confirmed_at.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS terms_version text NULL;
-- Sealed rows (DATA_KEY set): name, message and the answers are NULL, email holds a keyed hash of the address
-- ('hmac:…', so one entry per address still holds), and sealed holds all of them encrypted (AES-256-GCM) under
-- the key named by key_id. NULL key_id: a plain row.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS key_id text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS sealed text NULL;
CREATE INDEX IF NOT EXISTS waitlist_key_id_idx ON waitlist (key_id);
