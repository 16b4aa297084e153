-- 0030: "Invite everyone matching (N)" for a rare answer, at a million sign-ups.
--
-- The People page counts, up to 1,001, the people a filter by answer matches whom a wave may take (confirmed, in no
-- wave, not suppressed: invitations' AVAILABLE). For an answer 2% of the list gave, walking the confirmed people in
-- sign-up order read about 50,000 rows to find 1,001 (65-134 ms). This index holds only the choices of the people a
-- wave may take, so the count reads the index's matches alone (11 ms, measured on the bench's million).
CREATE INDEX IF NOT EXISTS waitlist_invitable_choices_idx ON waitlist USING gin (choices jsonb_path_ops)
  WHERE status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed;
