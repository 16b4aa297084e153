/**
 * A segment (segment.ts) in SQL: one parameter, the JSON objects of `containments`, as text[], and one condition,
 * `choices @> ANY(…)`, which 0022's GIN index on `choices` answers (a bitmap scan per object, OR'ed): as fast at a
 * million rows as the segment's people are few. NULL matches everyone. Each statement is planned with its values
 * (an unnamed statement), so an unused segment folds to true before the planner picks an index. The counts each
 * option has, and the funnel by answer, are read from migration 0025's tally, never from the list.
 */

/** Row `alias`'s choices contain one of the objects in parameter `$n` (NULL: any row). */
export const segmentMatch = (n: number, alias = "") =>
  `($${n}::text[] IS NULL OR ${alias}choices @> ANY($${n}::text[]::jsonb[]))`;

/** The answers of row `alias` as rows (question, value): a choice's value, each of a multiple's values. */
export const answerRows = (alias: string) => `CROSS JOIN LATERAL jsonb_each(coalesce(${alias}.choices, '{}'::jsonb))
      AS a(question, answer)
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE jsonb_typeof(a.answer) WHEN 'array' THEN a.answer
      ELSE jsonb_build_array(a.answer) END) AS v(value)`;

export const SEGMENT_SQL = {
  /** How many people (any status) gave each value of questions `$1`. */
  offered: `SELECT question_id, value, sum(count)::bigint AS count FROM waitlist_answer_tally
    WHERE question_id = ANY($1::text[]) GROUP BY question_id, value HAVING sum(count) > 0`,
} as const;
