-- The whole schema, to read. Databases are built from netlify/database/migrations/ (Netlify applies them at
-- every deploy; `netlify dev`, `npm run db:migrate` and the embedded database apply them too);
-- tests/integration/schema-sql.test.ts fails when this file and the migrations define different things.
CREATE TABLE IF NOT EXISTS waitlist (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NULL,
  email text NOT NULL,
  message text NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- 'pending' until the address is confirmed by e-mail (only when mail is configured); otherwise 'confirmed'.
  status text NOT NULL DEFAULT 'confirmed' CONSTRAINT waitlist_status_check CHECK (status IN ('pending', 'confirmed')),
  confirmed_at timestamptz NULL,
  -- When the latest confirmation e-mail went out (NULL: none yet, or its sending failed): re-sends wait 10 minutes.
  confirmation_sent_at timestamptz NULL,
  -- When the latest removal link asked for by address went out: the same 10 minutes between two.
  removal_sent_at timestamptz NULL
);

-- One entry per address, whatever its case.
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_email_lower_key ON waitlist (lower(email));

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
