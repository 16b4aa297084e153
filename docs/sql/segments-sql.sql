-- src/server/segments/sql.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- SEGMENT_SQL.offered
SELECT question_id, value, sum(count)::bigint AS count FROM waitlist_answer_tally
    WHERE question_id = ANY($1::text[]) GROUP BY question_id, value HAVING sum(count) > 0;
