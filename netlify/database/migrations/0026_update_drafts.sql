-- 0026: an update's draft as the console previews it (src/server/updates/drafts.ts), keyed by its words' hash, so
-- that the preview's frame (a page of its own, GET /admin/updates/mail) can show the e-mail of words that have not
-- been sent. Team-written text only, no person's data; drafts older than a week are deleted as new ones come.
CREATE TABLE waitlist_update_draft (
  words text PRIMARY KEY,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
