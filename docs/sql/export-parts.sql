-- src/server/export/parts.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SQL.ceiling
SELECT coalesce(max(id), 0)::bigint AS through FROM waitlist;

-- SQL.partEnd
WITH part AS (
      SELECT id, sum($4::int + 2 * octet_length(coalesce(sealed, '')) + 2 * octet_length(t)
        - octet_length(replace(replace(replace(replace(replace(replace(replace(replace(replace(t, chr(34), ''), chr(92), ''), chr(9), ''), chr(13), ''), chr(10), ''), chr(61), ''), chr(43), ''), chr(45), ''), chr(64), ''))) OVER (ORDER BY id) AS charged
      FROM (
        SELECT id, sealed, concat(name, email, message, organization, why, connect, source, medium, campaign,
          referrer, page, terms_version) AS t
        FROM waitlist WHERE id > $1::bigint AND id <= $2::bigint ORDER BY id LIMIT $3::int
      ) AS rows
    )
    SELECT max(id) AS last, count(*)::int AS rows FROM part
    WHERE charged <= $5::bigint OR id = (SELECT min(id) FROM part);
