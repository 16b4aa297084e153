-- src/server/console/sign-in/sessions.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SQL.open
WITH pruned AS (DELETE FROM admin_session WHERE expires_at < now() - interval '1 day')
    INSERT INTO admin_session (id_hash, admin, expires_at) VALUES ($1, $2, now() + make_interval(hours => 12));

-- SQL.find
SELECT admin FROM admin_session WHERE id_hash = $1 AND expires_at > now();

-- SQL.end
DELETE FROM admin_session WHERE id_hash = $1;

-- SQL.issue
WITH pruned AS (DELETE FROM admin_sign_in WHERE expires_at < now() - interval '1 day')
    INSERT INTO admin_sign_in (token_hash, admin, expires_at) VALUES ($1, $2, now() + make_interval(mins => 15));

-- SQL.use
UPDATE admin_sign_in SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
    RETURNING admin;
