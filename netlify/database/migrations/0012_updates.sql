-- 0012: updates to the people waiting, with consent and one-click unsubscribe (src/server/updates/).
--
-- A person's choice about updates, recorded as the terms consent is: yes or no (NULL: never asked), when, and
-- which words they were shown (a version of the text in src/server/updates/consent.ts, or 'one-click' for a mail
-- provider's List-Unsubscribe POST). Only confirmed people who said yes are sent an update.
ALTER TABLE waitlist ADD COLUMN updates_consent boolean NULL;
ALTER TABLE waitlist ADD COLUMN updates_consent_at timestamptz NULL;
ALTER TABLE waitlist ADD COLUMN updates_consent_words text NULL;
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
  failed integer NOT NULL DEFAULT 0
);

-- Who an update goes to, recorded when it is sent (the audience of that moment), and what became of each: 'queued',
-- 'attempted' (its last byte was on its way when a run died: the next run counts it sent, unconfirmed, and never
-- mails it twice), 'sent', 'failed' (the SMTP server refused it: error), 'skipped' (unsubscribed or gone first).
CREATE TABLE waitlist_update_recipient (
  update_id bigint NOT NULL REFERENCES waitlist_update (id) ON DELETE CASCADE,
  waitlist_id bigint NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'queued' CONSTRAINT waitlist_update_recipient_state_check
    CHECK (state IN ('queued', 'attempted', 'sent', 'failed', 'skipped')),
  done_at timestamptz NULL,
  error text NULL,
  -- Times their server said "not now" (4xx) to this address: each moves them behind the others, the third fails.
  tries smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (update_id, waitlist_id)
);
CREATE INDEX waitlist_update_recipient_todo_idx ON waitlist_update_recipient (update_id, tries, waitlist_id)
  WHERE state IN ('queued', 'attempted');
CREATE INDEX waitlist_update_recipient_person_idx ON waitlist_update_recipient (waitlist_id);
