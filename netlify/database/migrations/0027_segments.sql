-- 0027: segments, letting people in and writing to them by their answers (src/server/segments/).
--
-- Finding the people who gave an answer needs no new index: 0022's GIN index on `choices` (jsonb_path_ops) answers
-- `choices @> ANY(…)`, the one form every segment compiles to, from the index. What it cannot do cheaply is count
-- every option's people at a million rows (a bitmap of a quarter of the list per option), so the counts the People
-- filters offer and the funnel by answer come from a tally, kept by the statement that changes a row like 0018's.

-- The choices people gave (migration 0022's `choices`: a choice's value, each of a multiple's) by sign-up day (UTC),
-- question, value and status now: the People filters' counts and the funnel by answer read it, never the list.
CREATE TABLE waitlist_answer_tally (
  day date NOT NULL,
  question_id text NOT NULL,
  value text NOT NULL,
  status text NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT waitlist_answer_tally_key UNIQUE (day, question_id, value, status)
);

-- 0018's four statements and the answers' fifth, last, so rows are still locked in one order.
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
      ON CONFLICT (day, field, value, status) DO UPDATE SET count = t.count + excluded.count$sql$, changes),
    format($sql$
      INSERT INTO waitlist_answer_tally AS t (day, question_id, value, status, count)
      SELECT (c.created_at AT TIME ZONE 'UTC')::date, a.key, v.value, c.status, sum(c.sign) FROM (%s) c
      CROSS JOIN LATERAL jsonb_each(coalesce(c.choices, '{}'::jsonb)) AS a(key, answer)
      CROSS JOIN LATERAL jsonb_array_elements_text(CASE jsonb_typeof(a.answer) WHEN 'array' THEN a.answer
        ELSE jsonb_build_array(a.answer) END) AS v(value)
      GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, question_id, value, status) DO UPDATE SET count = t.count + excluded.count$sql$, changes)
  ]
$fn$;

-- An update may go to a segment of its audience (the People page's filter, or the CLI's --answer): the filter in
-- words, as the address writes it, so the same words to another segment are another update (updates/start.ts).
ALTER TABLE waitlist_update ADD COLUMN segment text NULL;

-- Writes wait while the tally is filled from the rows already there, so none is counted twice or missed.
LOCK TABLE waitlist IN SHARE ROW EXCLUSIVE MODE;
DELETE FROM waitlist_answer_tally;
DO $do$
BEGIN
  EXECUTE (waitlist_tally_statements('SELECT 1 AS sign, * FROM waitlist'))[5];
END
$do$;
