-- src/server/store/allowance.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- ALLOWANCE_SQL.hit
WITH hit AS (INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts), previous AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts), pruned AS (DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz - interval '1 hour' AND (SELECT attempts FROM hit) = 1), verdict AS (SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous),
    retry AS (
  SELECT greatest(1, ceil((CASE WHEN a + 1 <= m AND here < w THEN here WHEN m >= 1 AND later < w THEN w + later
      ELSE 2 * w END - e) / 1000))::int AS seconds
  FROM (SELECT w, e, a, m,
      CASE WHEN p = 0 THEN e ELSE greatest(e, w * (1 - (m - a - 1) / p)) END AS here,
      CASE WHEN a <= m - 1 OR a = 0 THEN 0 ELSE w * (1 - (m - 1) / a) END AS later
    FROM (SELECT len.w, round((1 - $5::float8) * len.w) AS e, (hit.attempts)::float8 AS a,
        previous.attempts::float8 AS p, $4::float8 AS m
      FROM hit, previous, (SELECT extract(epoch FROM $2::timestamptz - $3::timestamptz)::float8 * 1000 AS w) len
    ) counts
  ) times)
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after;

-- ALLOWANCE_SQL.peek
WITH hit AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
        WHERE client_key = $1 AND window_start = $2::timestamptz), 0) + 1 AS attempts),
      previous AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts), verdict AS (SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous), retry AS (
  SELECT greatest(1, ceil((CASE WHEN a + 1 <= m AND here < w THEN here WHEN m >= 1 AND later < w THEN w + later
      ELSE 2 * w END - e) / 1000))::int AS seconds
  FROM (SELECT w, e, a, m,
      CASE WHEN p = 0 THEN e ELSE greatest(e, w * (1 - (m - a - 1) / p)) END AS here,
      CASE WHEN a <= m - 1 OR a = 0 THEN 0 ELSE w * (1 - (m - 1) / a) END AS later
    FROM (SELECT len.w, round((1 - $5::float8) * len.w) AS e, (hit.attempts - 1)::float8 AS a,
        previous.attempts::float8 AS p, $4::float8 AS m
      FROM hit, previous, (SELECT extract(epoch FROM $2::timestamptz - $3::timestamptz)::float8 * 1000 AS w) len
    ) counts
  ) times)
    SELECT (SELECT attempts FROM hit) - 1 AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT seconds FROM retry) AS retry_after;
