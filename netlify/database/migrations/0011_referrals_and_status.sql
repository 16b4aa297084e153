-- 0011: a private status page per person, a share link, and referrals that count only real people
-- (src/server/referrals/ says how they are used).
--
-- A public share code per person: 10 characters of a 32-letter alphabet without look-alikes (i, l, o, u), about
-- 50 bits. Not a secret (it is meant to be shared), so the database's random() makes it; unique by index, and a
-- collision found while giving the existing rows theirs is drawn again before the index is made.
CREATE OR REPLACE FUNCTION waitlist_referral_code() RETURNS text LANGUAGE sql VOLATILE AS $fn$
  SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 10)
$fn$;

ALTER TABLE waitlist ADD COLUMN referral_code text NULL;
UPDATE waitlist SET referral_code = waitlist_referral_code();
DO $do$
BEGIN
  LOOP
    UPDATE waitlist SET referral_code = waitlist_referral_code() WHERE id IN (
      SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY referral_code ORDER BY id) AS n FROM waitlist) d
      WHERE n > 1);
    EXIT WHEN NOT FOUND;
  END LOOP;
END
$do$;
ALTER TABLE waitlist ALTER COLUMN referral_code SET DEFAULT waitlist_referral_code();
ALTER TABLE waitlist ALTER COLUMN referral_code SET NOT NULL;
CREATE UNIQUE INDEX waitlist_referral_code_key ON waitlist (referral_code);

-- Counted referrals of this person (a removal takes one back: the trigger below), and how many were counted on
-- referrals_day (UTC), for the daily cap: one row, so the statement that counts re-reads it under its lock.
ALTER TABLE waitlist ADD COLUMN referrals integer NOT NULL DEFAULT 0;
ALTER TABLE waitlist ADD COLUMN referrals_day date NULL;
ALTER TABLE waitlist ADD COLUMN referrals_today integer NOT NULL DEFAULT 0;
-- A keyed hash of the mailbox the address reaches (src/server/mail/mailbox.ts: case, +tag, Gmail's dots and
-- googlemail.com folded), written by every sign-up from now on: one mailbox counts once as a referral. The rows
-- already here get theirs from the mailbox-keys scheduled function (the key needs the server's secret, and a
-- sealed address DATA_KEY: neither is SQL's), found by waitlist_unkeyed_idx.
ALTER TABLE waitlist ADD COLUMN mailbox_key text NULL;
-- When the latest status link asked for by address went out: the same RESEND_MINUTES between two.
ALTER TABLE waitlist ADD COLUMN status_sent_at timestamptz NULL;

CREATE INDEX waitlist_mailbox_idx ON waitlist (mailbox_key) WHERE mailbox_key IS NOT NULL;
CREATE INDEX waitlist_unkeyed_idx ON waitlist (id) WHERE mailbox_key IS NULL;
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

CREATE OR REPLACE FUNCTION waitlist_referral_taken_back() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE waitlist w SET referrals = w.referrals - t.n
  FROM (SELECT referrer_id, count(*)::int AS n FROM referral_removed
        WHERE outcome = 'counted' AND referrer_id IS NOT NULL GROUP BY referrer_id ORDER BY referrer_id) t
  WHERE w.id = t.referrer_id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER waitlist_referral_delete AFTER DELETE ON waitlist_referral REFERENCING OLD TABLE AS referral_removed
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_referral_taken_back();

-- A status link: long-lived (it works while the person is on the list), and only its hash is kept, like the others.
ALTER TABLE waitlist_token DROP CONSTRAINT waitlist_token_purpose_check;
ALTER TABLE waitlist_token ADD CONSTRAINT waitlist_token_purpose_check
  CHECK (purpose IN ('confirm', 'remove', 'status'));

-- Waiting (confirmed) people by hour of sign-up (UTC), kept by the tally triggers: a place in line is the sum of the
-- hours before one's own plus a count within it, never a count of the whole line.
CREATE TABLE waitlist_line_tally (
  hour timestamp PRIMARY KEY,
  count bigint NOT NULL
);
INSERT INTO waitlist_line_tally (hour, count)
SELECT date_trunc('hour', created_at AT TIME ZONE 'UTC'), count(*) FROM waitlist WHERE status = 'confirmed' GROUP BY 1;

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
      ON CONFLICT (hour) DO UPDATE SET count = t.count + excluded.count$sql$, changes)
  ]
$fn$;
