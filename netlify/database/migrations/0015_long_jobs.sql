-- 0015: long jobs run by themselves (src/server/jobs/): an update, a wave and a webhook backlog are each a row with
-- one lease (owner, heartbeat_at, finished_at, as updates and waves already had), now also an operator's pause with
-- its reason (or an automatic one: a complaint rate, say), a cancellation (the rest stay unsent), and who started
-- it. The background function accepts a signed request once: its nonce is recorded here until it expires.
ALTER TABLE waitlist_update ADD COLUMN paused_reason text NULL;
ALTER TABLE waitlist_update ADD COLUMN cancelled_at timestamptz NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN paused_reason text NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN cancelled_at timestamptz NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN author text NULL;

-- "Deliver everything waiting now": one row per press, the events it made due, and its lease like any job's.
CREATE TABLE waitlist_webhook_drain (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  author text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  owner text NULL,
  heartbeat_at timestamptz NULL,
  finished_at timestamptz NULL,
  paused_reason text NULL,
  cancelled_at timestamptz NULL,
  total integer NOT NULL DEFAULT 0
);

-- A signed start of the background function is single-use: its nonce, kept until the request would have expired.
CREATE TABLE waitlist_job_nonce (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
