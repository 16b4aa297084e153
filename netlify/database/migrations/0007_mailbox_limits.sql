-- 0007: how many confirmation and removal e-mails each mailbox was sent per day (UTC), so plus-addressed sign-ups
-- (victim+1@…, victim+2@…) cannot fill one inbox. The key is a keyed hash of the mailbox (its address without a
-- +tag, case-folded): no address is stored. Days before yesterday are pruned as new ones start.
CREATE TABLE IF NOT EXISTS waitlist_mailbox_day (
  mailbox_key text NOT NULL,
  day date NOT NULL,
  sent integer NOT NULL DEFAULT 1,
  PRIMARY KEY (mailbox_key, day)
);
