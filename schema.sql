-- The whole schema, to read. Databases are built from netlify/database/migrations/ (Netlify applies them at
-- every deploy; `netlify dev`, `npm run db:migrate` and the embedded database apply them too);
-- tests/integration/db/schema-sql.test.ts fails when this file and the migrations define different things.
-- A wave of invitations: who runs it and when it last showed signs of life, so a wave whose process died is
-- completed by the next run while a live one is left alone.
CREATE TABLE IF NOT EXISTS waitlist_invite_wave (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner text NOT NULL,
  size integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz NULL,
  -- From the console (0010): the preview's one-time ticket, its counts, and with mail off who is in its CSV and
  -- whether that file is still offered again.
  ticket text NULL UNIQUE,
  invited integer NOT NULL DEFAULT 0,
  refused integer NOT NULL DEFAULT 0,
  stopped boolean NOT NULL DEFAULT false,
  file_people bigint[] NOT NULL DEFAULT '{}',
  file_pending boolean NOT NULL DEFAULT false
);

-- A public share code per person (migration 0011): 10 characters of a 32-letter alphabet without look-alikes.
CREATE OR REPLACE FUNCTION waitlist_referral_code() RETURNS text LANGUAGE sql VOLATILE AS $fn$
  SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 10)
$fn$;

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
  -- The wave that invited them, kept once invite_wave_id lets go (0019; NULL: not invited, or before 0019).
  invited_wave_id bigint NULL REFERENCES waitlist_invite_wave (id) ON DELETE SET NULL,
  -- Only a SHA-256 of the invite code is kept; the code itself exists only in the e-mail (or the team's CSV).
  invite_code_hash text NULL,
  -- The reminder's fresh code (0017): the first e-mail's keeps working beside it until the invitation expires.
  invite_reminder_code_hash text NULL,
  invite_expires_at timestamptz NULL,
  -- Set just before the invitation's last bytes go to the SMTP server: its code redeems from then on. It invites
  -- nobody: only the server's answer, read, does; a wave that dies before that is mailed again by the next run.
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
  -- The team's questions (0022): free-text answers by question id (in clear only on a row not sealed), and the
  -- choices, in clear so they can be filtered: {"team-size": "50+", "tools": ["Notion"]}.
  answers jsonb NULL,
  choices jsonb NULL,
  -- A hash of the Terms of Service the person agreed to (src/server/terms-version.ts), when they signed up
  -- (created_at); when they confirmed their address is confirmed_at.
  terms_version text NULL,
  -- Sealed rows (DATA_KEY set): name, message and the answers are NULL, email holds a keyed hash of the address
  -- ('hmac:…', so one entry per address still holds), and sealed holds all of them encrypted (AES-256-GCM) under
  -- the key named by key_id. NULL key_id: a plain row.
  key_id text NULL,
  sealed text NULL,
  -- Referrals (0011, src/server/referrals/): the person's public share code; how many of their referrals count,
  -- and how many were counted on referrals_day (UTC), for the daily cap; a keyed hash of the mailbox the address
  -- reaches (case, +tag, Gmail's dots folded); when the latest status link asked for by address went out.
  referral_code text NOT NULL DEFAULT waitlist_referral_code(),
  referrals integer NOT NULL DEFAULT 0,
  referrals_day date NULL,
  referrals_today integer NOT NULL DEFAULT 0,
  mailbox_key text NULL,
  -- A keyed hash of the exact address, case-folded only (0021): what the suppression list keys on.
  address_key text NULL,
  status_sent_at timestamptz NULL,
  -- Whether the sign-up came by a share link (0018): set when its waitlist_referral row is written, kept on the row
  -- so the funnel's tally can take a removed person off the share link's counts.
  by_share_link boolean NOT NULL DEFAULT false,
  -- Whether that mailbox is on the suppression list now (0019: kept by the triggers at the end of this file).
  mail_suppressed boolean NOT NULL DEFAULT false,
  -- Updates (0012, src/server/updates/): the person's choice (NULL: never asked), when, and the words they were shown.
  updates_consent boolean NULL,
  updates_consent_at timestamptz NULL,
  updates_consent_words text NULL
);

-- One entry per address, whatever its case.
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_email_lower_key ON waitlist (lower(email));

CREATE UNIQUE INDEX IF NOT EXISTS waitlist_invite_code_key ON waitlist (invite_code_hash)
  WHERE invite_code_hash IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_invite_reminder_code_key ON waitlist (invite_reminder_code_hash)
  WHERE invite_reminder_code_hash IS NOT NULL;
-- Invited people by when their invitation expires: who is due a reminder, without reading the whole list.
CREATE INDEX IF NOT EXISTS waitlist_invite_expires_idx ON waitlist (invite_expires_at) WHERE status = 'invited';
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
  purpose text NOT NULL CONSTRAINT waitlist_token_purpose_check CHECK (purpose IN ('confirm', 'remove', 'status')),
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

-- The operators' console. Only SHA-256 hashes of session ids and sign-in tokens are kept, and admins are named by a
-- keyed hash of their address (src/server/admin/identity.ts, migration 0009): a copy of these tables
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

-- The server's own secret (client keys, proof-of-work signatures) when SERVER_SECRET is not set: made once by
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

-- The console at a million sign-ups (migration 0008 says how): counts kept by the database in the statement that
-- changes a row, an index in sign-up order, and one for searching by part of an address.
-- Rows by status and by the key that seals them ('' for a plain row): the totals and the sealing report.
CREATE TABLE IF NOT EXISTS waitlist_tally (
  status text NOT NULL,
  key_id text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (status, key_id)
);

-- Sign-ups by day (UTC) of created_at: field 'all' (value NULL) for the chart, one row per value of each source
-- field for the breakdown (NULL: none known).
CREATE TABLE IF NOT EXISTS waitlist_day_tally (
  day date NOT NULL,
  field text NOT NULL CONSTRAINT waitlist_day_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer')),
  value text NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_day_tally_key UNIQUE NULLS NOT DISTINCT (day, field, value)
);
-- Waiting (confirmed) people by hour of sign-up (UTC): a place in line is the sum of the hours before one's own
-- plus a count within it, never a count of the whole line (src/server/store/line.ts).
CREATE TABLE IF NOT EXISTS waitlist_line_tally (
  hour timestamp PRIMARY KEY,
  count bigint NOT NULL
);
-- Sign-ups by day (UTC) of created_at and by their status now (0018, the console's chart and funnel by source):
-- field 'all' (value NULL), one row per value of each source field (NULL: none known), and 'share' (value NULL) for
-- those who came by a share link.
CREATE TABLE waitlist_funnel_tally (
  day date NOT NULL,
  field text NOT NULL CONSTRAINT waitlist_funnel_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer', 'share')),
  value text NULL,
  status text NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_funnel_tally_key UNIQUE NULLS NOT DISTINCT (day, field, value, status)
);
-- The choices people gave (migration 0022's `choices`: a choice's value, each of a multiple's) by sign-up day (UTC),
-- question, value and status now: the People filters' counts and the funnel by answer read it, never the list.
CREATE TABLE waitlist_answer_tally (
  day date NOT NULL,
  question_id text NOT NULL,
  value text NOT NULL,
  status text NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_answer_tally_key UNIQUE (day, question_id, value, status)
);

-- The five statements that apply one statement's changes (rows added +1, rows removed -1; an update is both) to
-- the tallies. Rows are locked in key order, one tally after another in this order, at the end of the statement: two
-- statements never wait on each other in a cycle. An update that changes nothing a tally keys on nets to nothing
-- there and writes nothing. Returned as text because only the trigger's own function sees its transition tables.
CREATE OR REPLACE FUNCTION waitlist_tally_statements(changes text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $fn$
  SELECT ARRAY[
    format($sql$
      INSERT INTO waitlist_tally AS t (status, key_id, count)
      SELECT status, coalesce(key_id, ''), sum(sign) FROM (%s) c
      GROUP BY 1, 2 HAVING sum(sign) <> 0 ORDER BY 1, 2
      ON CONFLICT (status, key_id) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_day_tally AS t (day, field, value, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, f.field, f.value, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', c.source), ('medium', c.medium),
        ('campaign', c.campaign), ('referrer', c.referrer)) AS f(field, value)
      GROUP BY 1, 2, 3 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (day, field, value) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_line_tally AS t (hour, count)
      SELECT date_trunc('hour', c.created_at AT TIME ZONE 'UTC'), sum(c.sign) FROM (%s) c
      WHERE c.status = 'confirmed'
      GROUP BY 1 HAVING sum(c.sign) <> 0 ORDER BY 1
      ON CONFLICT (hour) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_funnel_tally AS t (day, field, value, status, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, f.field, f.value, c.status, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', c.source), ('medium', c.medium),
        ('campaign', c.campaign), ('referrer', c.referrer), ('share', NULL)) AS f(field, value)
      WHERE f.field <> 'share' OR c.by_share_link
      GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, field, value, status) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_answer_tally AS t (day, question_id, value, status, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, a.key, v.value, c.status, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL jsonb_each(coalesce(c.choices, '{}'::jsonb)) AS a(key, answer)
      CROSS JOIN LATERAL jsonb_array_elements_text(CASE jsonb_typeof(a.answer) WHEN 'array' THEN a.answer
        ELSE jsonb_build_array(a.answer) END) AS v(value)
      GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, question_id, value, status) DO UPDATE SET count = t.count + excluded.count$sql$, changes)
  ]
$fn$;

CREATE OR REPLACE FUNCTION waitlist_tally_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  statement text;
BEGIN
  FOREACH statement IN ARRAY waitlist_tally_statements(CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM tally_added'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM tally_removed'
    ELSE 'SELECT -1 AS sign, * FROM tally_removed UNION ALL SELECT 1, * FROM tally_added' END)
  LOOP
    EXECUTE statement;
  END LOOP;
  RETURN NULL;
END
$fn$;

-- The trigger's statements read only the rows changed: compiling them (JIT, costed at millions by the answers'
-- two set-returning functions) took about 450 ms a statement of 1,000 rows, running them under 1 ms (0029).
ALTER FUNCTION waitlist_tally_trigger() SET jit = off;

CREATE TRIGGER waitlist_tally_insert AFTER INSERT ON waitlist REFERENCING NEW TABLE AS tally_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();
CREATE TRIGGER waitlist_tally_update AFTER UPDATE ON waitlist
  REFERENCING OLD TABLE AS tally_removed NEW TABLE AS tally_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();
CREATE TRIGGER waitlist_tally_delete AFTER DELETE ON waitlist REFERENCING OLD TABLE AS tally_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_tally_trigger();

CREATE INDEX IF NOT EXISTS waitlist_created_idx ON waitlist (created_at, id);

-- A search by part of a plain address: trigrams where the database offers pg_trgm (Neon, so Netlify Database;
-- PostgreSQL's contrib; the embedded database loads it), else the start of the address. Sealed addresses are
-- found whole only, by their keyed hash, through waitlist_email_lower_key.
DO $do$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available: a search by part of an address matches its start only';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS waitlist_email_part_idx ON waitlist USING gin (lower(email) gin_trgm_ops)
      WHERE key_id IS NULL;
  ELSE
    CREATE INDEX IF NOT EXISTS waitlist_email_part_idx ON waitlist (lower(email) text_pattern_ops)
      WHERE key_id IS NULL;
  END IF;
END
$do$;

-- Referrals and the status page (migration 0011).
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_referral_code_key ON waitlist (referral_code);
CREATE INDEX waitlist_mailbox_idx ON waitlist (mailbox_key) WHERE mailbox_key IS NOT NULL;
-- Rows the scheduled keying has still to give their keys (src/server/referrals/mailbox-keys.ts, 0021).
CREATE INDEX waitlist_unkeyed_idx ON waitlist (id) WHERE address_key IS NULL;
CREATE INDEX waitlist_address_idx ON waitlist (address_key) WHERE address_key IS NOT NULL;
-- Waiting people whom referrals moved: few, read whole when the line is worked out with REFERRAL_PLACES > 0.
CREATE INDEX waitlist_referrers_idx ON waitlist (created_at, id) WHERE status = 'confirmed' AND referrals > 0;

-- A sign-up that came by a share link: who shared it, and what became of it. 'pending' until the person confirms,
-- then 'counted', or why not: the referrer's own mailbox ('self'), a throwaway domain ('disposable'), a mailbox
-- already on the list or counted ('duplicate'), past the referrer's daily cap ('over-limit'), or the referrer had
-- left ('referrer-left'). The row goes with the referred person's; a counted one going takes its count back.
CREATE TABLE waitlist_referral (
  referred_id bigint PRIMARY KEY REFERENCES waitlist (id) ON DELETE CASCADE,
  referrer_id bigint NULL REFERENCES waitlist (id) ON DELETE SET NULL,
  mailbox_key text NULL,
  outcome text NOT NULL DEFAULT 'pending' CONSTRAINT waitlist_referral_outcome_check
    CHECK (outcome IN ('pending', 'counted', 'self', 'disposable', 'duplicate', 'over-limit', 'referrer-left')),
  created_at timestamptz NOT NULL DEFAULT now(),
  counted_at timestamptz NULL
);
CREATE INDEX waitlist_referral_referrer_idx ON waitlist_referral (referrer_id);
CREATE INDEX waitlist_referral_counted_idx ON waitlist_referral (counted_at) WHERE outcome = 'counted';
-- A mailbox counts once, even when two of its spellings confirm at the same moment.
CREATE UNIQUE INDEX waitlist_referral_mailbox_key ON waitlist_referral (mailbox_key) WHERE outcome = 'counted';

-- A counted referral taken back (the person it brought left): when it had counted and when it went, for the
-- referrer's timeline, nothing of the person who left; it goes with the referrer (migration 0020).
CREATE TABLE waitlist_referral_revoked (
  referrer_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  counted_at timestamptz NULL,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX waitlist_referral_revoked_referrer_idx ON waitlist_referral_revoked (referrer_id);

CREATE OR REPLACE FUNCTION waitlist_referral_taken_back() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE waitlist w SET referrals = w.referrals - t.n
  FROM (SELECT referrer_id, count(*)::int AS n FROM referral_removed
        WHERE outcome = 'counted' AND referrer_id IS NOT NULL GROUP BY referrer_id ORDER BY referrer_id) t
  WHERE w.id = t.referrer_id;
  INSERT INTO waitlist_referral_revoked (referrer_id, counted_at)
  SELECT r.referrer_id, r.counted_at FROM referral_removed r JOIN waitlist w ON w.id = r.referrer_id
  WHERE r.outcome = 'counted' ORDER BY r.referrer_id, r.counted_at;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER waitlist_referral_delete AFTER DELETE ON waitlist_referral REFERENCING OLD TABLE AS referral_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_referral_taken_back();
-- A sign-up's referral row marks its person as come by a share link (0018), in the sign-up's own statement.
CREATE OR REPLACE FUNCTION waitlist_referral_share_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE waitlist w SET by_share_link = true
  FROM referral_added r WHERE w.id = r.referred_id AND NOT w.by_share_link;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER waitlist_referral_share AFTER INSERT ON waitlist_referral REFERENCING NEW TABLE AS referral_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_referral_share_trigger();

-- Updates to the people waiting (migration 0012).
CREATE INDEX waitlist_updates_audience_idx ON waitlist (id) WHERE status = 'confirmed' AND updates_consent;
-- People who stopped updates, by when: each past update's "unsubscribed since" starts from them.
CREATE INDEX waitlist_updates_stopped_idx ON waitlist (updates_consent_at) WHERE updates_consent = false;

-- An update: its words, who wrote it (an admin's keyed id, or 'CLI'), the console's one-time ticket, who is sending
-- it now and when it last showed signs of life (a send that died is continued by the next run), and its counts.
CREATE TABLE waitlist_update (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subject text NOT NULL,
  body text NOT NULL,
  author text NOT NULL,
  ticket text NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  owner text NULL,
  heartbeat_at timestamptz NULL,
  finished_at timestamptz NULL,
  sent integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- A segment of the audience (the People page's filter as its address writes it); NULL: everyone who said yes.
  segment text NULL
);

-- Who an update goes to, recorded when it is sent (the audience of that moment), and what became of each: 'queued',
-- 'attempted' (its last byte was on its way when a run died: the next run counts it sent, unconfirmed, and never
-- mails it twice), 'sent', 'failed' (the SMTP server refused it: error), 'skipped' (unsubscribed or gone first).
-- An update's draft as the console previews it (src/server/updates/drafts.ts), keyed by its words' hash.
CREATE TABLE waitlist_update_draft (
  words text PRIMARY KEY,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE waitlist_update_recipient (
  update_id bigint NOT NULL REFERENCES waitlist_update (id) ON DELETE CASCADE,
  waitlist_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'queued' CONSTRAINT waitlist_update_recipient_state_check
    CHECK (state IN ('queued', 'attempted', 'sent', 'failed', 'skipped')),
  done_at timestamptz NULL,
  error text NULL,
  tries smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (update_id, waitlist_id)
);
CREATE INDEX waitlist_update_recipient_todo_idx ON waitlist_update_recipient (update_id, tries, waitlist_id)
  WHERE state IN ('queued', 'attempted');
CREATE INDEX waitlist_update_recipient_person_idx ON waitlist_update_recipient (waitlist_id);

-- Webhooks and the audit log (migration 0013).
-- Whether changes are recorded for a receiver: set by the server that has WEBHOOK_URL (npm start, the functions);
-- paused by a receiver's 410 Gone until the team re-enables deliveries in the console.
CREATE TABLE waitlist_webhook_state (
  singleton boolean PRIMARY KEY DEFAULT true CONSTRAINT waitlist_webhook_state_singleton CHECK (singleton),
  enabled boolean NOT NULL DEFAULT false,
  paused_at timestamptz NULL,
  paused_reason text NULL
);
INSERT INTO waitlist_webhook_state DEFAULT VALUES;

-- One event per change, in the change's own transaction (the triggers below): its Standard Webhooks id (the same
-- at every attempt), type, person (a snapshot, sealed as the row was; emptied once delivered), and its delivery:
-- 'pending' with the next try, 'delivered' (a 2xx), or 'failed' (its tries spent). A lease keeps two workers off
-- one event; the receiver's answer is kept to 1 KB.
CREATE TABLE waitlist_webhook_event (
  id text PRIMARY KEY,
  type text NOT NULL,
  waitlist_id bigint NULL,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  person jsonb NULL,
  state text NOT NULL DEFAULT 'pending' CONSTRAINT waitlist_webhook_event_state_check
    CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz NULL,
  lease_owner text NULL,
  last_attempt_at timestamptz NULL,
  last_status integer NULL,
  last_answer text NULL,
  last_error text NULL,
  delivered_at timestamptz NULL
);
-- In the claim's order, whole: the events one statement writes share a next_attempt_at, and a claim reads one row.
CREATE INDEX waitlist_webhook_due_idx ON waitlist_webhook_event (next_attempt_at, occurred_at, id)
  WHERE state = 'pending';
CREATE INDEX waitlist_webhook_recent_idx ON waitlist_webhook_event (occurred_at);
CREATE INDEX waitlist_webhook_person_idx ON waitlist_webhook_event (waitlist_id);

-- The person as a receiver is told of them (sealed columns as they are: the sender opens them with DATA_KEY).
CREATE OR REPLACE FUNCTION waitlist_webhook_person(w waitlist) RETURNS jsonb LANGUAGE sql STABLE AS $fn$
  SELECT jsonb_build_object('email', w.email, 'name', w.name, 'status', w.status, 'source', w.source,
    'medium', w.medium, 'campaign', w.campaign, 'referrer', w.referrer, 'page', w.page,
    'created_at', w.created_at, 'referral_code', w.referral_code, 'referrals', w.referrals,
    'key_id', w.key_id, 'sealed', w.sealed, 'answers', w.answers, 'choices', w.choices)
$fn$;

CREATE OR REPLACE FUNCTION waitlist_webhook_new_id() RETURNS text LANGUAGE sql VOLATILE AS $fn$
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', '')
$fn$;

-- The list's changes: a sign-up, a status moving on (confirmed, invited, joined), updates stopped, a removal.
CREATE OR REPLACE FUNCTION waitlist_webhook_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT coalesce((SELECT enabled FROM waitlist_webhook_state), false) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), 'waitlist.signed_up', a.id, waitlist_webhook_person(a)
    FROM webhook_added a ORDER BY a.id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), 'waitlist.removed', r.id, waitlist_webhook_person(r)
    FROM webhook_removed r ORDER BY r.id;
  ELSE
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), e.type, e.id, e.person FROM (
      SELECT a.id, 'waitlist.' || a.status AS type, waitlist_webhook_person(a) AS person, 1 AS n
      FROM webhook_removed r JOIN webhook_added a ON a.id = r.id
      WHERE r.status IS DISTINCT FROM a.status AND a.status IN ('confirmed', 'invited', 'joined')
      UNION ALL
      SELECT a.id, 'waitlist.unsubscribed', waitlist_webhook_person(a), 2
      FROM webhook_removed r JOIN webhook_added a ON a.id = r.id
      WHERE r.updates_consent IS TRUE AND a.updates_consent IS FALSE
    ) e ORDER BY e.id, e.n;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER waitlist_webhook_insert AFTER INSERT ON waitlist REFERENCING NEW TABLE AS webhook_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_webhook_trigger();
CREATE TRIGGER waitlist_webhook_update AFTER UPDATE ON waitlist
  REFERENCING OLD TABLE AS webhook_removed NEW TABLE AS webhook_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_webhook_trigger();
CREATE TRIGGER waitlist_webhook_delete AFTER DELETE ON waitlist REFERENCING OLD TABLE AS webhook_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_webhook_trigger();

-- Referrals: one counted (the referrer's record, with whom they referred), and one taken back.
CREATE OR REPLACE FUNCTION waitlist_webhook_referral_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT coalesce((SELECT enabled FROM waitlist_webhook_state), false) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), 'waitlist.referred', w.id,
      waitlist_webhook_person(w) || jsonb_build_object('referred', waitlist_webhook_person(p))
    FROM webhook_referral_removed r JOIN webhook_referral_added a ON a.referred_id = r.referred_id
    JOIN waitlist w ON w.id = a.referrer_id JOIN waitlist p ON p.id = a.referred_id
    WHERE r.outcome <> 'counted' AND a.outcome = 'counted' ORDER BY a.referred_id;
  ELSE
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), 'waitlist.referral_revoked', w.id, waitlist_webhook_person(w)
    FROM webhook_referral_removed r JOIN waitlist w ON w.id = r.referrer_id
    WHERE r.outcome = 'counted' ORDER BY r.referred_id;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER waitlist_webhook_referral_update AFTER UPDATE ON waitlist_referral
  REFERENCING OLD TABLE AS webhook_referral_removed NEW TABLE AS webhook_referral_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_webhook_referral_trigger();
CREATE TRIGGER waitlist_webhook_referral_delete AFTER DELETE ON waitlist_referral
  REFERENCING OLD TABLE AS webhook_referral_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_webhook_referral_trigger();

-- What the team did: who (an admin's address, "token", "CLI"), when, what, and its details (never a signed-up
-- person's address in clear). The product only appends; the daily purge deletes entries older than AUDIT_DAYS.
CREATE TABLE waitlist_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX waitlist_audit_at_idx ON waitlist_audit (at);
-- An action's end names its start (details.started): the console shows each action once (migration 0014).
CREATE INDEX waitlist_audit_started_idx ON waitlist_audit (((details ->> 'started')::bigint))
  WHERE details ? 'started';

-- Append-only in the database itself, whatever statement a bug or a hand sends: no entry is ever updated, the table
-- is never truncated, and an entry is deleted only by waitlist_audit_purge (the daily purge), which says so for its
-- own statement only (a transaction-local setting: one statement is one transaction over Neon's HTTP driver, so a
-- SET LOCAL sent before the DELETE would not reach it), and only once the entry is a day old (AUDIT_DAYS is 1 at
-- least): a fresh entry cannot be deleted even so.
CREATE OR REPLACE FUNCTION waitlist_audit_guard() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('waitlist.audit_purge', true) = 'on'
      AND OLD.at < now() - interval '1 day' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'waitlist_audit is append-only: % refused (entries older than AUDIT_DAYS go by waitlist_audit_purge)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$fn$;

CREATE TRIGGER waitlist_audit_append_only BEFORE UPDATE OR DELETE ON waitlist_audit
  FOR EACH ROW EXECUTE FUNCTION waitlist_audit_guard();
CREATE TRIGGER waitlist_audit_no_truncate BEFORE TRUNCATE ON waitlist_audit
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_audit_guard();

-- The purge: deletes the entries older than `days` (at least 1), and says how many.
CREATE OR REPLACE FUNCTION waitlist_audit_purge(days integer) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  removed integer;
BEGIN
  PERFORM set_config('waitlist.audit_purge', 'on', true);
  DELETE FROM waitlist_audit WHERE at < now() - make_interval(days => greatest(days, 1));
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('waitlist.audit_purge', '', true);
  RETURN removed;
END
$fn$;

-- Long jobs (migration 0015, src/server/jobs/): a pause with its reason, a cancellation, who started a wave;
-- a webhook backlog's drain as a job of its own; the background function's used nonces.
ALTER TABLE waitlist_update ADD COLUMN paused_reason text NULL;
ALTER TABLE waitlist_update ADD COLUMN cancelled_at timestamptz NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN paused_reason text NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN cancelled_at timestamptz NULL;
ALTER TABLE waitlist_invite_wave ADD COLUMN author text NULL;

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

CREATE TABLE waitlist_job_nonce (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- Mail that keeps its good name: the suppression list, what was sent and what came back (migration 0016). Keyed
-- by the exact address (0021); whole_mailbox: a row of before 0021, which holds a whole mailbox's key and
-- suppresses every address of it. Evidence names nobody: an address in it is kept as <recipient>.
CREATE TABLE mail_suppression (
  address_key text PRIMARY KEY,
  reason text NOT NULL CONSTRAINT mail_suppression_reason_check
    CHECK (reason IN ('hard_bounce', 'complaint', 'soft_bounces', 'operator', 'imported')),
  evidence text NOT NULL,
  source text NOT NULL,
  suppressed_at timestamptz NOT NULL DEFAULT now(),
  lifted_at timestamptz NULL,
  lifted_by text NULL,
  whole_mailbox boolean NOT NULL DEFAULT false
);
-- Suppressions by when, for the console's "suppressions rising" (0018).
CREATE INDEX mail_suppression_at_idx ON mail_suppression (suppressed_at);

-- Soft bounces (a 4xx for one address, a provider's transient bounce), each kept 30 days: the third within them
-- suppresses the address.
CREATE TABLE mail_soft_bounce (
  address_key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  evidence text NOT NULL
);
CREATE INDEX mail_soft_bounce_key_idx ON mail_soft_bounce (address_key, at);

-- Every e-mail to a person as it was accepted: its Message-ID and the SMTP server's id for it (a provider's, read
-- from its 250 answer), the mailbox, its kind and the update it belongs to, so a provider's later event names the
-- message and the update it counts against. Kept 90 days.
CREATE TABLE mail_sent (
  message_id text PRIMARY KEY,
  provider_id text NULL,
  mailbox_key text NOT NULL,
  kind text NOT NULL,
  update_id bigint NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  -- The exact address's key (0021; NULL: sent before it).
  address_key text NULL
);
CREATE INDEX mail_sent_provider_idx ON mail_sent (provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX mail_sent_mailbox_idx ON mail_sent (mailbox_key, sent_at);
CREATE INDEX mail_sent_at_idx ON mail_sent (sent_at);

-- What came back: one row per provider event (idempotent by the provider's id) or SMTP refusal, with the update it
-- counts against: an update's bounces and complaints and their rates are counted here.
CREATE TABLE mail_event (
  provider text NOT NULL,
  event_id text NOT NULL,
  kind text NOT NULL CONSTRAINT mail_event_kind_check CHECK (kind IN ('hard_bounce', 'soft_bounce', 'complaint')),
  address_key text NULL,
  update_id bigint NULL,
  evidence text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX mail_event_update_idx ON mail_event (update_id, kind) WHERE update_id IS NOT NULL;

-- waitlist.suppressed for each person of a mailbox newly suppressed (or suppressed again after a lift), through the
-- webhook outbox of 0013 (on only while webhooks are).
CREATE OR REPLACE FUNCTION mail_suppression_webhook_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT coalesce((SELECT enabled FROM waitlist_webhook_state), false) THEN
    RETURN NULL;
  END IF;
  IF NEW.lifted_at IS NULL AND (TG_OP = 'INSERT' OR OLD.lifted_at IS NOT NULL) THEN
    INSERT INTO waitlist_webhook_event (id, type, waitlist_id, person)
    SELECT waitlist_webhook_new_id(), 'waitlist.suppressed', w.id,
      waitlist_webhook_person(w) || jsonb_build_object('suppression', jsonb_build_object('reason', NEW.reason,
        'source', NEW.source, 'suppressed_at', NEW.suppressed_at))
    FROM waitlist w
    WHERE (w.address_key = NEW.address_key AND NOT NEW.whole_mailbox)
      OR (w.mailbox_key = NEW.address_key AND NEW.whole_mailbox)
    ORDER BY w.id;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER mail_suppression_webhook AFTER INSERT OR UPDATE ON mail_suppression
  FOR EACH ROW EXECUTE FUNCTION mail_suppression_webhook_trigger();

-- One reminder, never two: a row per person and kind, written before the reminder goes (its primary key is the
-- claim: of two runs at once, one inserts it and sends, the other finds it taken). 'resend' (0025): the team sent
-- the invitation again from the person's console page, once.
CREATE TABLE mail_reminder (
  waitlist_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  kind text NOT NULL CONSTRAINT mail_reminder_kind_check CHECK (kind IN ('confirm', 'invite', 'resend')),
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (waitlist_id, kind)
);

-- The console's People page (migration 0019, src/server/console/list.ts): whether a person's mailbox is suppressed,
-- kept by the database as either table changes (one lock, taken alone by a suppression's change and shared by rows
-- given a mailbox key, so a suppression and a sign-up at once wait for each other), and an index per filter.
CREATE FUNCTION waitlist_mail_suppressed(address text, mailbox text) RETURNS boolean LANGUAGE sql STABLE AS $fn$
  SELECT EXISTS (SELECT 1 FROM mail_suppression s WHERE s.address_key IN (address, mailbox) AND s.lifted_at IS NULL
    AND CASE WHEN s.whole_mailbox THEN s.address_key = mailbox ELSE s.address_key = address END)
$fn$;
CREATE FUNCTION mail_suppression_mark_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  key text := CASE WHEN TG_OP = 'DELETE' THEN OLD.address_key ELSE NEW.address_key END;
  whole boolean := CASE WHEN TG_OP = 'DELETE' THEN OLD.whole_mailbox ELSE NEW.whole_mailbox END;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('waitlist.mail_suppressed', 0));
  -- Worked out again rather than set: a row may also be suppressed by another (its mailbox's, before 0021).
  UPDATE waitlist w SET mail_suppressed = NOT mail_suppressed
  WHERE ((w.address_key = key AND NOT whole) OR (w.mailbox_key = key AND whole))
    AND w.mail_suppressed <> waitlist_mail_suppressed(w.address_key, w.mailbox_key);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER mail_suppression_mark AFTER INSERT OR DELETE OR UPDATE OF lifted_at ON mail_suppression
  FOR EACH ROW EXECUTE FUNCTION mail_suppression_mark_trigger();

CREATE FUNCTION waitlist_suppressed_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('waitlist.mail_suppressed', 0));
  NEW.mail_suppressed := waitlist_mail_suppressed(NEW.address_key, NEW.mailbox_key);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER waitlist_suppressed BEFORE INSERT OR UPDATE OF mailbox_key, address_key ON waitlist
  FOR EACH ROW WHEN (NEW.mailbox_key IS NOT NULL OR NEW.address_key IS NOT NULL)
  EXECUTE FUNCTION waitlist_suppressed_trigger();

CREATE INDEX waitlist_status_created_idx ON waitlist (status, created_at, id);
CREATE INDEX waitlist_source_created_idx ON waitlist (source, created_at, id);
CREATE INDEX waitlist_medium_created_idx ON waitlist (medium, created_at, id);
CREATE INDEX waitlist_campaign_created_idx ON waitlist (campaign, created_at, id);
CREATE INDEX waitlist_referrer_created_idx ON waitlist (referrer, created_at, id);
CREATE INDEX waitlist_updates_created_idx ON waitlist (updates_consent, created_at, id);
CREATE INDEX waitlist_suppressed_idx ON waitlist (created_at, id) WHERE mail_suppressed;
CREATE INDEX waitlist_invited_wave_idx ON waitlist (invited_wave_id, created_at, id) WHERE invited_wave_id IS NOT NULL;
CREATE INDEX waitlist_referrals_idx ON waitlist (referrals, created_at, id) WHERE referrals > 0;
CREATE INDEX waitlist_choices_idx ON waitlist USING gin (choices jsonb_path_ops);
-- The choices of the people a wave may take (0030): Invite everyone matching's count of a rare answer.
CREATE INDEX waitlist_invitable_choices_idx ON waitlist USING gin (choices jsonb_path_ops)
  WHERE status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed;

-- A list brought from another tool (migration 0023, src/server/import/).
-- An import is its file: one row per file (by its SHA-256), so the same file run again is the same import and goes
-- on where it stopped. Its confirmation e-mails are a long job under the one lease (src/server/jobs/lease.ts: owner,
-- heartbeat_at, finished_at, paused_reason, cancelled_at).
CREATE TABLE waitlist_import (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  file_hash text NOT NULL UNIQUE,
  file_name text NOT NULL,
  format text NOT NULL,
  consent text NOT NULL CONSTRAINT waitlist_import_consent_check CHECK (consent IN ('confirmed', 'ask')),
  source text NOT NULL,
  actor text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  -- When every row of the file was read and recorded (NULL: killed or still reading: the same file goes on).
  rows_done_at timestamptz NULL,
  owner text NULL,
  heartbeat_at timestamptz NULL,
  finished_at timestamptz NULL,
  paused_reason text NULL,
  cancelled_at timestamptz NULL
);

-- Each row of the file, once (part: the CSV within a ZIP, from 0; line: the header is line 1), and what became of
-- it: added (waitlist_id), already on the list, suppressed, or refused (and why). An added row's consent evidence
-- (the column and its time, from the other tool) is its consent record; mailed_at claims its one confirmation
-- e-mail before it goes, so a run killed after the claim has sent at most one.
CREATE TABLE waitlist_import_row (
  import_id bigint NOT NULL REFERENCES waitlist_import (id) ON DELETE CASCADE,
  part smallint NOT NULL,
  line integer NOT NULL,
  outcome text NOT NULL CONSTRAINT waitlist_import_row_outcome_check
    CHECK (outcome IN ('added', 'existing', 'suppressed', 'refused')),
  waitlist_id bigint NULL REFERENCES waitlist (id) ON DELETE SET NULL,
  reason text NULL,
  consent_evidence text NULL,
  consent_at timestamptz NULL,
  mailed_at timestamptz NULL,
  PRIMARY KEY (import_id, part, line)
);
-- The rows still owed their confirmation e-mail, in file order.
CREATE INDEX waitlist_import_row_unmailed_idx ON waitlist_import_row (import_id, part, line)
  WHERE outcome = 'added' AND mailed_at IS NULL;
CREATE INDEX waitlist_import_row_person_idx ON waitlist_import_row (waitlist_id) WHERE waitlist_id IS NOT NULL;

-- A file uploaded in the console, kept between its dry run and its import (functions share no disk); deleted once
-- every line is read and recorded (0023).
CREATE TABLE waitlist_import_upload (
  file_hash text PRIMARY KEY,
  file_name text NOT NULL,
  bytes bytea NOT NULL,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);

-- Visits without cookies (migration 0024, src/server/visits/): the day's random salt and the day's marks, both gone
-- after 48 hours, and the rollups, kept 25 months. Page '*' is the site: arrivals and the day's distinct visitors.
CREATE TABLE visit_salt (
  day date PRIMARY KEY,
  salt bytea NOT NULL CONSTRAINT visit_salt_length_check CHECK (length(salt) = 32)
);
CREATE TABLE visit_rollup (
  day date NOT NULL,
  page text NOT NULL,
  source text NULL,
  medium text NULL,
  campaign text NULL,
  referrer text NULL,
  by_share_link boolean NOT NULL,
  views bigint NOT NULL,
  visitors bigint NOT NULL,
  CONSTRAINT visit_rollup_key UNIQUE NULLS NOT DISTINCT (day, page, source, medium, campaign, referrer, by_share_link)
);
CREATE TABLE visit_seen (
  day date NOT NULL,
  mark bytea NOT NULL,
  CONSTRAINT visit_seen_key PRIMARY KEY (day, mark)
);
-- The site's arrivals and visitors by day and by month, in all and by each source field's value (migration 0028): the
-- console reads it, never the rollups. Kept by the count statement; purged with the rollups; refilled from them by
-- visit_tally_refill().
CREATE TABLE visit_tally (
  span text NOT NULL CONSTRAINT visit_tally_span_check CHECK (span IN ('day', 'month')),
  field text NOT NULL CONSTRAINT visit_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer', 'share')),
  day date NOT NULL,
  value text NULL,
  views bigint NOT NULL,
  visitors bigint NOT NULL,
  CONSTRAINT visit_tally_key UNIQUE NULLS NOT DISTINCT (span, field, day, value)
);
CREATE FUNCTION visit_tally_refill() RETURNS void LANGUAGE sql AS $fn$
  LOCK TABLE visit_rollup IN SHARE ROW EXCLUSIVE MODE;
  LOCK TABLE visit_tally IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM visit_tally;
  INSERT INTO visit_tally (span, field, day, value, views, visitors)
  SELECT 'day', f.field, r.day, f.value, sum(r.views), sum(r.visitors) FROM visit_rollup r
  CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', r.source), ('medium', r.medium), ('campaign', r.campaign),
    ('referrer', r.referrer), ('share', NULL)) AS f(field, value)
  WHERE r.page = '*' AND (f.field <> 'share' OR r.by_share_link)
  GROUP BY f.field, r.day, f.value;
  INSERT INTO visit_tally (span, field, day, value, views, visitors)
  SELECT 'month', field, date_trunc('month', day::timestamp)::date, value, sum(views), sum(visitors)
  FROM visit_tally WHERE span = 'day'
  GROUP BY field, date_trunc('month', day::timestamp)::date, value;
$fn$;
