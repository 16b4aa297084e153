-- 0025: the team may send a person's invitation again, once, from their console page (issue 54;
-- src/server/invitations/resend.ts). Kept beside the reminders: the row (waitlist_id, 'resend') is the claim that
-- makes it once, as a reminder's is, and the person's timeline shows it.
ALTER TABLE mail_reminder DROP CONSTRAINT mail_reminder_kind_check;
ALTER TABLE mail_reminder ADD CONSTRAINT mail_reminder_kind_check CHECK (kind IN ('confirm', 'invite', 'resend'));
