-- 0002: confirmed sign-ups (double opt-in) and removal links. Idempotent (IF NOT EXISTS throughout). Rows
-- that existed before take the column default, 'confirmed': they were accepted when no confirmation was asked.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS status text NOT NULL DEFAULT 'confirmed'
  CONSTRAINT waitlist_status_check CHECK (status IN ('pending', 'confirmed'));
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS confirmed_at timestamptz NULL;
-- When the latest confirmation e-mail went out (NULL: none yet, or its sending failed): re-sends wait 10 minutes.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS confirmation_sent_at timestamptz NULL;
-- When the latest removal link asked for by address went out: the same 10 minutes between two.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS removal_sent_at timestamptz NULL;

-- Pending sign-ups by age, for the purge.
CREATE INDEX IF NOT EXISTS waitlist_pending_idx ON waitlist (created_at) WHERE status = 'pending';

-- Single-purpose links. Only a SHA-256 of each token is kept; the token itself exists only in the e-mail.
-- Removing an entry removes its tokens.
CREATE TABLE IF NOT EXISTS waitlist_token (
  token_hash text PRIMARY KEY,
  waitlist_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  purpose text NOT NULL CONSTRAINT waitlist_token_purpose_check CHECK (purpose IN ('confirm', 'remove')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS waitlist_token_waitlist_idx ON waitlist_token (waitlist_id);
