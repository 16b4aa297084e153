-- 0019: the console's People page (src/server/console/list.ts) at a million sign-ups: filtered by status, source,
-- medium, campaign, referring site, updates choice, the suppression list or the wave that invited them, sorted by
-- sign-up date either way or by referrals. Each filter reads an index of its own in sign-up order, so a page reads
-- one page of rows however rare the value (walking the list in sign-up order and skipping what does not match
-- would read the whole table for a value nobody has).

-- The wave that invited a person, kept: invite_wave_id holds a confirmed person only while their invitation is
-- being sent (waves and the line count who is held by it), and is cleared once they are invited. People invited
-- before this migration have none: nothing recorded which wave they were in.
ALTER TABLE waitlist ADD COLUMN invited_wave_id bigint NULL REFERENCES waitlist_invite_wave (id) ON DELETE SET NULL;

-- Whether the person's mailbox is on the suppression list now (0016: suppressed, not lifted), kept by the database
-- as either table changes. The list keeps the keys of mailboxes long gone from the waitlist (unconfirmed sign-ups
-- purged after a bounce), so looking every suppressed key up would read more the longer the site runs; this flag
-- is read along an index of the few who are. A suppression's change and a row's new mailbox key take one lock
-- first (the change alone, the rows together: one entry in the lock table however many rows a statement keys), so
-- a suppression and a sign-up of that mailbox at the same moment wait for each other instead of each missing the
-- other's row; sign-ups never wait for each other.
ALTER TABLE waitlist ADD COLUMN mail_suppressed boolean NOT NULL DEFAULT false;

CREATE FUNCTION mail_suppression_mark_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  key text := CASE WHEN TG_OP = 'DELETE' THEN OLD.mailbox_key ELSE NEW.mailbox_key END;
  suppressed boolean := TG_OP <> 'DELETE' AND NEW.lifted_at IS NULL;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('waitlist.mail_suppressed', 0));
  UPDATE waitlist SET mail_suppressed = suppressed WHERE mailbox_key = key AND mail_suppressed <> suppressed;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER mail_suppression_mark AFTER INSERT OR DELETE OR UPDATE OF lifted_at ON mail_suppression
  FOR EACH ROW EXECUTE FUNCTION mail_suppression_mark_trigger();

CREATE FUNCTION waitlist_suppressed_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('waitlist.mail_suppressed', 0));
  NEW.mail_suppressed := EXISTS (SELECT 1 FROM mail_suppression s
    WHERE s.mailbox_key = NEW.mailbox_key AND s.lifted_at IS NULL);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER waitlist_suppressed BEFORE INSERT OR UPDATE OF mailbox_key ON waitlist
  FOR EACH ROW WHEN (NEW.mailbox_key IS NOT NULL) EXECUTE FUNCTION waitlist_suppressed_trigger();

UPDATE waitlist w SET mail_suppressed = true FROM mail_suppression s
  WHERE s.mailbox_key = w.mailbox_key AND s.lifted_at IS NULL;

-- One index per filter, in sign-up order (read backwards for newest first). A value none has reads nothing.
CREATE INDEX waitlist_status_created_idx ON waitlist (status, created_at, id);
CREATE INDEX waitlist_source_created_idx ON waitlist (source, created_at, id);
CREATE INDEX waitlist_medium_created_idx ON waitlist (medium, created_at, id);
CREATE INDEX waitlist_campaign_created_idx ON waitlist (campaign, created_at, id);
CREATE INDEX waitlist_referrer_created_idx ON waitlist (referrer, created_at, id);
CREATE INDEX waitlist_updates_created_idx ON waitlist (updates_consent, created_at, id);
CREATE INDEX waitlist_suppressed_idx ON waitlist (created_at, id) WHERE mail_suppressed;
CREATE INDEX waitlist_invited_wave_idx ON waitlist (invited_wave_id, created_at, id) WHERE invited_wave_id IS NOT NULL;
-- Most referrals first: the few people with referrals, in that order; everyone else follows in sign-up order.
CREATE INDEX waitlist_referrals_idx ON waitlist (referrals, created_at, id) WHERE referrals > 0;
