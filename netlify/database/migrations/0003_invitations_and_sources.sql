-- 0003: letting people in (pending → confirmed → invited → joined) and where sign-ups come from. Idempotent:
-- the status check is replaced by a wider one, columns and tables are added only if missing, and every existing
-- row keeps its status.
ALTER TABLE waitlist DROP CONSTRAINT IF EXISTS waitlist_status_check;
ALTER TABLE waitlist ADD CONSTRAINT waitlist_status_check
  CHECK (status IN ('pending', 'confirmed', 'invited', 'joined'));
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS invited_at timestamptz NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS joined_at timestamptz NULL;

-- A wave of invitations: who runs it and when it last showed signs of life, so a wave whose process died is
-- completed by the next run while a live one is left alone.
CREATE TABLE IF NOT EXISTS waitlist_invite_wave (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner text NOT NULL,
  size integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz NULL
);

-- The wave that holds a confirmed person while their invitation is sent (NULL: nobody's).
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS invite_wave_id bigint NULL
  REFERENCES waitlist_invite_wave (id) ON DELETE SET NULL;
-- Only a SHA-256 of the invite code is kept; the code itself exists only in the e-mail (or the team's CSV).
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS invite_code_hash text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS invite_expires_at timestamptz NULL;
-- Set just before the invitation is handed to the SMTP server: if the wave dies before it hears back, the next run
-- knows this one may have arrived and does not write to the person twice.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS invite_attempted_at timestamptz NULL;

-- Where the sign-up came from: utm_source (or ref), utm_medium, utm_campaign of the page signed up on, the host of
-- another site that sent the visitor there, and that page's path. No IP, no full referring URL.
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS source text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS medium text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS campaign text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS referrer text NULL;
ALTER TABLE waitlist ADD COLUMN IF NOT EXISTS page text NULL;

CREATE UNIQUE INDEX IF NOT EXISTS waitlist_invite_code_key ON waitlist (invite_code_hash)
  WHERE invite_code_hash IS NOT NULL;
-- Confirmed sign-ups in sign-up order: the next wave is the oldest of them.
CREATE INDEX IF NOT EXISTS waitlist_confirmed_idx ON waitlist (created_at, id) WHERE status = 'confirmed';
CREATE INDEX IF NOT EXISTS waitlist_invite_wave_idx ON waitlist (invite_wave_id) WHERE invite_wave_id IS NOT NULL;
