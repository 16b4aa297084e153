-- 0017: one reminder of an unused invitation (src/server/reminders/).
--
-- The reminder carries a fresh invite code (only codes' hashes are kept, so the first one cannot be sent again),
-- and the first e-mail's code keeps working beside it: a person may use either, once, until the invitation expires.
ALTER TABLE waitlist ADD COLUMN invite_reminder_code_hash text NULL;
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_invite_reminder_code_key ON waitlist (invite_reminder_code_hash)
  WHERE invite_reminder_code_hash IS NOT NULL;
-- Invited people by when their invitation expires: who is due a reminder, without reading the whole list.
CREATE INDEX IF NOT EXISTS waitlist_invite_expires_idx ON waitlist (invite_expires_at) WHERE status = 'invited';
