-- 0013: webhooks nothing can lose (an outbox written by the statement that changes the list) and the team's audit
-- log (src/server/webhooks/, src/server/audit/).
--
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
    'key_id', w.key_id, 'sealed', w.sealed)
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
