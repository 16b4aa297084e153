-- 0021: a bounce or a complaint suppresses the address it was about, not every address of its mailbox (issue 48).
-- Keyed on the folded mailbox (0016), a stranger who signed up `ceo+zz@corp.test` at a server that refuses it
-- silenced `ceo@corp.test`. The mailbox key stays what it is for counting (referrals, the daily cap); suppression
-- now keys on the exact address, case-folded only (src/server/mail/mailbox.ts, addressKey), under the database's
-- own secret as the mailbox key is.

-- Each row's address key, written by the sign-up; rows older than this migration get theirs from the scheduled
-- keying (src/server/referrals/mailbox-keys.ts), which now looks for rows without an address key (a superset of
-- those without a mailbox key: both are written together from now on).
ALTER TABLE waitlist ADD COLUMN address_key text NULL;
CREATE INDEX waitlist_address_idx ON waitlist (address_key) WHERE address_key IS NOT NULL;
DROP INDEX waitlist_unkeyed_idx;
CREATE INDEX waitlist_unkeyed_idx ON waitlist (id) WHERE address_key IS NULL;

-- The list's rows are keyed by address from now on. Rows written before hold a whole mailbox's key, and which of
-- its addresses bounced was never kept: they keep suppressing the whole mailbox (whole_mailbox), as they did, until
-- an operator lifts them. Added true for those rows, then false for every new one, so no row is rewritten.
ALTER TABLE mail_suppression RENAME COLUMN mailbox_key TO address_key;
ALTER TABLE mail_suppression ADD COLUMN whole_mailbox boolean NOT NULL DEFAULT true;
ALTER TABLE mail_suppression ALTER COLUMN whole_mailbox SET DEFAULT false;

-- Soft bounces count per address too; the ones kept so far were counted per mailbox and cannot be told apart, so
-- they go (at most two per mailbox, and 30 days' worth).
DELETE FROM mail_soft_bounce;
ALTER TABLE mail_soft_bounce RENAME COLUMN mailbox_key TO address_key;

-- What was sent names the address it went to, so a provider's later event suppresses that address; messages sent
-- before have none (a later event for one suppresses the address the event names, else the whole mailbox).
ALTER TABLE mail_sent ADD COLUMN address_key text NULL;
-- What came back: the address's key (before 0021: the mailbox's).
ALTER TABLE mail_event RENAME COLUMN mailbox_key TO address_key;

-- Whether a row of these keys is suppressed now: by its address, or by a whole-mailbox row of before 0021.
CREATE FUNCTION waitlist_mail_suppressed(address text, mailbox text) RETURNS boolean LANGUAGE sql STABLE AS $fn$
  SELECT EXISTS (SELECT 1 FROM mail_suppression s WHERE s.address_key IN (address, mailbox) AND s.lifted_at IS NULL
    AND CASE WHEN s.whole_mailbox THEN s.address_key = mailbox ELSE s.address_key = address END)
$fn$;

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

CREATE OR REPLACE FUNCTION mail_suppression_mark_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
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

CREATE OR REPLACE FUNCTION waitlist_suppressed_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('waitlist.mail_suppressed', 0));
  NEW.mail_suppressed := waitlist_mail_suppressed(NEW.address_key, NEW.mailbox_key);
  RETURN NEW;
END
$fn$;
DROP TRIGGER waitlist_suppressed ON waitlist;
CREATE TRIGGER waitlist_suppressed BEFORE INSERT OR UPDATE OF mailbox_key, address_key ON waitlist
  FOR EACH ROW WHEN (NEW.mailbox_key IS NOT NULL OR NEW.address_key IS NOT NULL)
  EXECUTE FUNCTION waitlist_suppressed_trigger();

-- Bounce evidence names nobody (src/server/suppression/evidence.ts): an address in an SMTP answer or a provider's
-- words is kept as <recipient>, in what was stored before too.
UPDATE mail_suppression SET evidence = regexp_replace(evidence, '<?[^[:space:]<>()",;:]+@[^[:space:]<>()",;:]+>?',
  '<recipient>', 'g') WHERE evidence LIKE '%@%';
UPDATE mail_event SET evidence = regexp_replace(evidence, '<?[^[:space:]<>()",;:]+@[^[:space:]<>()",;:]+>?',
  '<recipient>', 'g') WHERE evidence LIKE '%@%';
