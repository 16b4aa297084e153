-- src/server/console/overview/funnel-answers.ts: each statement as it is sent ($1, $2, … its parameters), by its name in the code.
-- Written by tests/unit/sql-docs.test.ts; regenerate: UPDATE_DOCS=1 npx vitest run --project fast tests/unit/sql-docs.test.ts

-- FUNNEL_ANSWERS_SQL.byAnswer
SELECT question_id, value, status, sum(count)::bigint AS count FROM waitlist_answer_tally
    WHERE question_id = ANY($1::text[]) AND ($2::int IS NULL OR day > (now() AT TIME ZONE 'UTC')::date - $2::int)
    GROUP BY question_id, value, status HAVING sum(count) <> 0;
