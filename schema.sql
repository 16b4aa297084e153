-- The waitlist. Idempotent: safe to apply on every start and every deploy.
CREATE TABLE IF NOT EXISTS waitlist (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NULL,
  email text NOT NULL,
  message text NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One entry per address, whatever its case.
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_email_lower_key ON waitlist (lower(email));
