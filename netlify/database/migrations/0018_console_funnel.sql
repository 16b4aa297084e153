-- 0018: the console's funnel by source and its chart by status (src/server/console/funnel-store.ts, store.ts).
-- How each source, medium, campaign, referring site and share link converts (signed up → confirmed → invited →
-- joined) is read from a tally the database keeps by day, field, value and status, in the statement that changes a
-- row, like 0008's: never a count of the list, so it answers as fast at a million sign-ups as at ten.

-- Whether the sign-up came by a share link, on its own row. waitlist_referral names the referred person, but a
-- removal deletes that row (ON DELETE CASCADE) before the tally trigger reads what was removed, so the tallies could
-- not take a removed person off the share link's counts. Set by the referral row's insert (the sign-up's own
-- statement), never unset: a referral row goes only with its person.
ALTER TABLE waitlist ADD COLUMN by_share_link boolean NOT NULL DEFAULT false;

-- Sign-ups by day (UTC) of created_at and by their status now: field 'all' (value NULL) for the chart, one row per
-- value of each source field (NULL: none known), and 'share' (value NULL) for those who came by a share link.
CREATE TABLE waitlist_funnel_tally (
  day date NOT NULL,
  field text NOT NULL CONSTRAINT waitlist_funnel_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer', 'share')),
  value text NULL,
  status text NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_funnel_tally_key UNIQUE NULLS NOT DISTINCT (day, field, value, status)
);

-- Writes wait while the tally is filled from the rows already there, so none is counted twice or missed.
LOCK TABLE waitlist IN SHARE ROW EXCLUSIVE MODE;

-- 0011's three statements and the funnel's, last: rows are still locked in one order (tally, day tally, line
-- tally, funnel tally), so two statements never wait on each other in a cycle. A change of status moves a person
-- from one status's rows to the next's; a change of nothing the tallies key on nets to nothing and writes nothing.
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
      ON CONFLICT (hour) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_funnel_tally AS t (day, field, value, status, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, f.field, f.value, c.status, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', c.source), ('medium', c.medium),
        ('campaign', c.campaign), ('referrer', c.referrer), ('share', NULL)) AS f(field, value)
      WHERE f.field <> 'share' OR c.by_share_link
      GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, field, value, status) DO UPDATE SET count = t.count + excluded.count$sql$, changes)
  ]
$fn$;

-- A sign-up's referral row marks its person as come by a share link (in the sign-up's statement, so the person is
-- counted there from the start; the update nets to nothing in every other tally).
CREATE OR REPLACE FUNCTION waitlist_referral_share_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE waitlist w SET by_share_link = true
  FROM referral_added r WHERE w.id = r.referred_id AND NOT w.by_share_link;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER waitlist_referral_share AFTER INSERT ON waitlist_referral REFERENCING NEW TABLE AS referral_added
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_referral_share_trigger();

-- The people already referred, then the funnel's tally from every row (its statement alone: the others are whole).
UPDATE waitlist SET by_share_link = true WHERE id IN (SELECT referred_id FROM waitlist_referral);
DELETE FROM waitlist_funnel_tally;
DO $do$
BEGIN
  EXECUTE (waitlist_tally_statements('SELECT 1 AS sign, * FROM waitlist'))[4];
END
$do$;

-- Suppressions by when, for the first page's "suppressions rising" (the last day against the week before).
CREATE INDEX mail_suppression_at_idx ON mail_suppression (suppressed_at);
