-- 0016: mail that keeps its good name (src/server/suppression/).
--
-- The suppression list: a mailbox (the keyed hash of its address without +tag, case-folded, Gmail's dots dropped:
-- the key waitlist.mailbox_key and the per-mailbox limit use, so no address is readable here) that must not be
-- mailed, why (a hard bounce, a complaint, three soft bounces within 30 days, an operator), the evidence (the SMTP
-- answer, or the provider's event), where it came from and when. Lifted by an operator: kept, with who and when,
-- so the person page can tell; a new bounce suppresses it again.
CREATE TABLE mail_suppression (
  mailbox_key text PRIMARY KEY,
  reason text NOT NULL CONSTRAINT mail_suppression_reason_check
    CHECK (reason IN ('hard_bounce', 'complaint', 'soft_bounces', 'operator')),
  evidence text NOT NULL,
  source text NOT NULL,
  suppressed_at timestamptz NOT NULL DEFAULT now(),
  lifted_at timestamptz NULL,
  lifted_by text NULL
);

-- Soft bounces (a 4xx for one address, a provider's transient bounce), each kept 30 days: the third within them
-- suppresses the mailbox.
CREATE TABLE mail_soft_bounce (
  mailbox_key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  evidence text NOT NULL
);
CREATE INDEX mail_soft_bounce_key_idx ON mail_soft_bounce (mailbox_key, at);

-- Every e-mail to a person as it was accepted: its Message-ID and the SMTP server's id for it (a provider's, read
-- from its 250 answer), the mailbox, its kind and the update it belongs to, so a provider's later event names the
-- message and the update it counts against. Kept 90 days.
CREATE TABLE mail_sent (
  message_id text PRIMARY KEY,
  provider_id text NULL,
  mailbox_key text NOT NULL,
  kind text NOT NULL,
  update_id bigint NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
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
  mailbox_key text NULL,
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
    FROM waitlist w WHERE w.mailbox_key = NEW.mailbox_key ORDER BY w.id;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER mail_suppression_webhook AFTER INSERT OR UPDATE ON mail_suppression
  FOR EACH ROW EXECUTE FUNCTION mail_suppression_webhook_trigger();

-- One reminder, never two: a row per person and kind, written before the reminder goes (its primary key is the
-- claim: of two runs at once, one inserts it and sends, the other finds it taken).
CREATE TABLE mail_reminder (
  waitlist_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  kind text NOT NULL CONSTRAINT mail_reminder_kind_check CHECK (kind IN ('confirm', 'invite')),
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (waitlist_id, kind)
);
