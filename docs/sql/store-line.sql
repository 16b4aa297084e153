-- src/server/store/line.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- LINE_SQL.waiting
SELECT coalesce(sum(count), 0)::bigint AS waiting FROM waitlist_tally WHERE status = 'confirmed';

-- LINE_SQL.person
SELECT w.id, w.status, w.referrals, CASE WHEN w.status = 'confirmed' THEN 1 + (
    (SELECT coalesce(sum(count), 0) FROM waitlist_line_tally WHERE hour < date_trunc('hour', w.created_at AT TIME ZONE 'UTC'))
    + (SELECT count(*) FROM waitlist o WHERE o.status = 'confirmed'
        AND o.created_at >= (date_trunc('hour', w.created_at AT TIME ZONE 'UTC')) AT TIME ZONE 'UTC'
        AND (o.created_at, o.id) < (w.created_at, w.id))) END AS b
    FROM waitlist w WHERE w.id = $1;

-- LINE_SQL.movers
WITH most AS (
      SELECT coalesce(max(referrals), 0)::bigint AS r FROM waitlist WHERE status = 'confirmed' AND referrals > 0
    ), bounds AS (
      SELECT $1::bigint AS lo, $2::bigint + $3::bigint * most.r AS hi FROM most
    ), hours AS NOT MATERIALIZED (
      SELECT hour, sum(count) OVER (ORDER BY hour) - count AS before, sum(count) OVER (ORDER BY hour) AS upto
      FROM waitlist_line_tally
    ), span AS (
      SELECT min(hour) AS first, max(hour) AS last FROM hours, bounds WHERE upto >= bounds.lo AND before < bounds.hi
    ), moved AS MATERIALIZED (
      SELECT w.id, w.referrals, (w.invite_wave_id IS NOT NULL OR w.mail_suppressed) AS held,
        1 + h.before + (SELECT count(*) FROM waitlist o WHERE o.status = 'confirmed'
          AND o.created_at >= h.hour AT TIME ZONE 'UTC' AND o.created_at <= w.created_at
          AND (o.created_at, o.id) < (w.created_at, w.id)) AS b
      FROM span s
      JOIN waitlist w ON w.status = 'confirmed' AND w.referrals > 0 AND w.created_at >= s.first AT TIME ZONE 'UTC'
        AND w.created_at < (s.last + interval '1 hour') AT TIME ZONE 'UTC'
      JOIN hours h ON h.hour = date_trunc('hour', w.created_at AT TIME ZONE 'UTC')
    )
    SELECT m.id, m.referrals, m.held, m.b FROM moved m, bounds WHERE m.b >= bounds.lo AND m.b <= bounds.hi;

-- LINE_SQL.head
WITH held AS (
      SELECT count(*)::int AS n FROM waitlist
      WHERE status = 'confirmed' AND (invite_wave_id IS NOT NULL OR mail_suppressed)
    )
    SELECT id, referrals, (invite_wave_id IS NOT NULL OR mail_suppressed) AS held, (SELECT n FROM held) AS held_count
    FROM waitlist
    WHERE status = 'confirmed' ORDER BY created_at, id LIMIT $1::int + (SELECT n FROM held);
