-- 0023: a list brought from another tool (src/server/import/). Numbered 0023, past 0021 and the 0022 of work under way.
--
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

-- Unsubscribes and bounces brought from the other tool: suppressed for the reason 'imported' (the tool's own reason
-- is in the evidence).
ALTER TABLE mail_suppression DROP CONSTRAINT mail_suppression_reason_check;
ALTER TABLE mail_suppression ADD CONSTRAINT mail_suppression_reason_check
  CHECK (reason IN ('hard_bounce', 'complaint', 'soft_bounces', 'operator', 'imported'));

-- A file uploaded in the console (People → Import a list), kept between its dry run and its import: Netlify's
-- functions share no disk, so the background run that imports it reads it from here. One row per file (its SHA-256,
-- as waitlist_import's); at most 6 MB (one request's payload), deleted once every line is read and recorded.
CREATE TABLE waitlist_import_upload (
  file_hash text PRIMARY KEY,
  file_name text NOT NULL,
  bytes bytea NOT NULL,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
