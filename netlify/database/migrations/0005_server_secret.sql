-- 0005: the server's own secret, for client keys (HMAC of a network) and proof-of-work signatures when
-- RATE_LIMIT_SECRET is not set. Made once, here, by the database's strong random generator (gen_random_uuid: 122
-- random bits each, two of them), so every function instance and every spelling of the database's URL finds the
-- same one, and nobody can compute it from anything they know. Idempotent: an existing secret is kept.
CREATE TABLE IF NOT EXISTS waitlist_secret (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO waitlist_secret (name, value)
VALUES ('server', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
ON CONFLICT (name) DO NOTHING;
