-- The whole schema, to read. Databases are built from netlify/database/migrations/ (Netlify applies them at
-- every deploy; `netlify dev`, `npm run db:migrate` and the embedded database apply them too);
-- tests/integration/schema-sql.test.ts fails when this file and the migrations define different things.
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

CREATE TABLE IF NOT EXISTS waitlist (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NULL,
  email text NOT NULL,
  message text NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- 'pending' until the address is confirmed by e-mail (only when mail is configured); otherwise 'confirmed'.
  -- 'pending' → 'confirmed' → 'invited' (an invite code went out) → 'joined' (the product redeemed the code).
  status text NOT NULL DEFAULT 'confirmed'
    CONSTRAINT waitlist_status_check CHECK (status IN ('pending', 'confirmed', 'invited', 'joined')),
  confirmed_at timestamptz NULL,
  -- When the latest confirmation e-mail went out (NULL: none yet, or its sending failed): re-sends wait 10 minutes.
  confirmation_sent_at timestamptz NULL,
  -- When the latest removal link asked for by address went out: the same 10 minutes between two.
  removal_sent_at timestamptz NULL,
  invited_at timestamptz NULL,
  joined_at timestamptz NULL,
  -- The wave that holds a confirmed person while their invitation is sent (NULL: nobody's).
  invite_wave_id bigint NULL REFERENCES waitlist_invite_wave (id) ON DELETE SET NULL,
  -- Only a SHA-256 of the invite code is kept; the code itself exists only in the e-mail (or the team's CSV).
  invite_code_hash text NULL,
  invite_expires_at timestamptz NULL,
  -- Set just before the invitation is handed to the SMTP server: if the wave dies before it hears back, the next
  -- run knows this one may have arrived and does not write to the person twice.
  invite_attempted_at timestamptz NULL,
  -- Where the sign-up came from: utm_source (or ref), utm_medium, utm_campaign of the page signed up on, the host
  -- of another site that sent the visitor there, and that page's path. No IP, no full referring URL.
  source text NULL,
  medium text NULL,
  campaign text NULL,
  referrer text NULL,
  page text NULL,
  -- Each optional answer on its own, beside the combined message (docs/brief.md).
  organization text NULL,
  why text NULL,
  connect text NULL,
  -- A hash of the Terms of Service the person agreed to (src/server/terms-version.ts), when they signed up
  -- (created_at); when they confirmed their address is confirmed_at.
  terms_version text NULL,
  -- Sealed rows (DATA_KEY set): name, message and the answers are NULL, email holds a keyed hash of the address
  -- ('hmac:…', so one entry per address still holds), and sealed holds all of them encrypted (AES-256-GCM) under
  -- the key named by key_id. NULL key_id: a plain row.
  key_id text NULL,
  sealed text NULL
);

-- One entry per address, whatever its case.
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_email_lower_key ON waitlist (lower(email));

CREATE UNIQUE INDEX IF NOT EXISTS waitlist_invite_code_key ON waitlist (invite_code_hash)
  WHERE invite_code_hash IS NOT NULL;
-- Confirmed sign-ups in sign-up order: the next wave is the oldest of them.
CREATE INDEX IF NOT EXISTS waitlist_confirmed_idx ON waitlist (created_at, id) WHERE status = 'confirmed';
CREATE INDEX IF NOT EXISTS waitlist_invite_wave_idx ON waitlist (invite_wave_id) WHERE invite_wave_id IS NOT NULL;

CREATE INDEX IF NOT EXISTS waitlist_key_id_idx ON waitlist (key_id);

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

-- Sign-up attempts per client and fixed time window, shared by every function instance. The client key is a
-- keyed hash (HMAC-SHA-256) of the IP address: no address is ever stored. Old windows are pruned as new ones start.
CREATE TABLE IF NOT EXISTS waitlist_rate_limit (
  client_key text NOT NULL,
  window_start timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 1,
  PRIMARY KEY (client_key, window_start)
);

CREATE INDEX IF NOT EXISTS waitlist_rate_limit_window_idx ON waitlist_rate_limit (window_start);

-- The operators' console. Only SHA-256 hashes of session ids and sign-in tokens are kept: a copy of these tables
-- signs nobody in.
-- A signed-in operator: ended by sign-out (the row goes) or at expires_at (12 hours after sign-in).
CREATE TABLE IF NOT EXISTS admin_session (
  id_hash text PRIMARY KEY,
  admin text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- A sign-in link e-mailed to an address of ADMIN_EMAILS: single use, short-lived.
CREATE TABLE IF NOT EXISTS admin_sign_in (
  token_hash text PRIMARY KEY,
  admin text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz NULL
);

-- The server's own secret (client keys, proof-of-work signatures) when RATE_LIMIT_SECRET is not set: made once by
-- the database's strong random generator, the same for every instance, computable by nobody.
CREATE TABLE IF NOT EXISTS waitlist_secret (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO waitlist_secret (name, value)
VALUES ('server', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
ON CONFLICT (name) DO NOTHING;

-- Confirmation and removal e-mails sent per mailbox and day (UTC), so plus-addressed sign-ups (victim+1@…,
-- victim+2@…) cannot fill one inbox. The key is a keyed hash of the mailbox (its address without a +tag,
-- case-folded): no address is stored. Days before yesterday are pruned as new ones start.
CREATE TABLE IF NOT EXISTS waitlist_mailbox_day (
  mailbox_key text NOT NULL,
  day date NOT NULL,
  sent integer NOT NULL DEFAULT 1,
  PRIMARY KEY (mailbox_key, day)
);
