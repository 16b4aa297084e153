-- 0004: the operators' console. Idempotent. Only SHA-256 hashes of session ids and sign-in tokens are kept:
-- a copy of these tables signs nobody in.
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
