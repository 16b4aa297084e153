-- 0001: the waitlist and its rate limit. Written idempotently (IF NOT EXISTS), so a database that was set up
-- from schema.sql before migrations existed takes it without error and keeps its rows.
CREATE TABLE IF NOT EXISTS waitlist (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NULL,
  email text NOT NULL,
  message text NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One entry per address, whatever its case.
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_email_lower_key ON waitlist (lower(email));

-- Sign-up attempts per client and fixed time window, shared by every function instance. The client key is a
-- keyed hash (HMAC-SHA-256) of the IP address: no address is ever stored. Old windows are pruned as new ones start.
CREATE TABLE IF NOT EXISTS waitlist_rate_limit (
  client_key text NOT NULL,
  window_start timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 1,
  PRIMARY KEY (client_key, window_start)
);

CREATE INDEX IF NOT EXISTS waitlist_rate_limit_window_idx ON waitlist_rate_limit (window_start);
