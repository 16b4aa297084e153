-- 0010: what a wave from the console did, kept on its row so the console says it from the database, never from
-- a query string (src/server/admin/wave-record.ts):
-- ticket: the one-time token of the preview that started it; a second confirmation of that preview finds this
--   wave instead of starting another.
-- invited, refused, stopped: its counts, added to by each request that sent part of it.
-- file_people, file_pending: with mail off, who is in its CSV, and whether the console still offers that file
--   again (new codes, the lost file's voided) until the admin says it arrived.
ALTER TABLE waitlist_invite_wave ADD COLUMN ticket text NULL UNIQUE;
ALTER TABLE waitlist_invite_wave ADD COLUMN invited integer NOT NULL DEFAULT 0;
ALTER TABLE waitlist_invite_wave ADD COLUMN refused integer NOT NULL DEFAULT 0;
ALTER TABLE waitlist_invite_wave ADD COLUMN stopped boolean NOT NULL DEFAULT false;
ALTER TABLE waitlist_invite_wave ADD COLUMN file_people bigint[] NOT NULL DEFAULT '{}';
ALTER TABLE waitlist_invite_wave ADD COLUMN file_pending boolean NOT NULL DEFAULT false;
