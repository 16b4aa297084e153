-- 0028: the site's arrivals and visitors by source field, kept as a tally beside the rollups (src/server/visits/).
-- The console's visitor figures, chart and funnel read it, never the rollups: at 10,000,000 views the rollups of 180
-- days are 688,320 rows, and the all-time funnel summed every one of them.

-- Each day's and each month's sums of the site's rollups (page '*'): field 'all' (value NULL) for the site, one row
-- per value of each source field (NULL: none known), and 'share' (value NULL) for arrivals by a share link. A month
-- row (day: the month's first day) is the sum of its day rows, so a range reads whole months and the days at its
-- ends. Counts only, as the rollups: nothing here names a visitor. Kept and purged as the rollups are (25 months).
CREATE TABLE visit_tally (
  span text NOT NULL CONSTRAINT visit_tally_span_check CHECK (span IN ('day', 'month')),
  field text NOT NULL CONSTRAINT visit_tally_field_check
    CHECK (field IN ('all', 'source', 'medium', 'campaign', 'referrer', 'share')),
  day date NOT NULL,
  value text NULL,
  views bigint NOT NULL,
  visitors bigint NOT NULL,
  CONSTRAINT visit_tally_key UNIQUE NULLS NOT DISTINCT (span, field, day, value)
);

-- The tally made again from the rollups, as the count statement would have kept it. Counts wait meanwhile, so none is
-- missed or counted twice. The migration fills it once; a test or a bench that writes rollups by hand calls it too.
CREATE FUNCTION visit_tally_refill() RETURNS void LANGUAGE sql AS $fn$
  LOCK TABLE visit_rollup IN SHARE ROW EXCLUSIVE MODE;
  LOCK TABLE visit_tally IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM visit_tally;
  INSERT INTO visit_tally (span, field, day, value, views, visitors)
  SELECT 'day', f.field, r.day, f.value, sum(r.views), sum(r.visitors) FROM visit_rollup r
  CROSS JOIN LATERAL (VALUES ('all', NULL), ('source', r.source), ('medium', r.medium), ('campaign', r.campaign),
    ('referrer', r.referrer), ('share', NULL)) AS f(field, value)
  WHERE r.page = '*' AND (f.field <> 'share' OR r.by_share_link)
  GROUP BY f.field, r.day, f.value;
  INSERT INTO visit_tally (span, field, day, value, views, visitors)
  SELECT 'month', field, date_trunc('month', day::timestamp)::date, value, sum(views), sum(visitors)
  FROM visit_tally WHERE span = 'day'
  GROUP BY field, date_trunc('month', day::timestamp)::date, value;
$fn$;

SELECT visit_tally_refill();
