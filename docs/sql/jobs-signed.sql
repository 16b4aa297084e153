-- src/server/jobs/signed.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- NONCE_SQL.use
WITH gone AS (DELETE FROM waitlist_job_nonce WHERE expires_at < now() - interval '1 hour')
    INSERT INTO waitlist_job_nonce (nonce, expires_at) VALUES ($1, to_timestamp($2))
    ON CONFLICT (nonce) DO NOTHING RETURNING nonce;
