/**
 * The funnel by answer: for each choice question of questions.json, each option's people (signed up in the range)
 * and how many of them confirmed, were invited and joined, as the funnel by source counts its groups (stepsOf).
 * Read from migration 0025's tally by day, question, value and status, never from the list. A multiple question's
 * person counts under each option they ticked. The page and its CSV show them after the sources.
 */
import { isChoice, QUESTIONS, type Question } from "../../../lib/waitlist/questions";
import type { Db } from "../../db/types";
import type { EntryStatus } from "../../entry";
import { type AnswerFunnel, type FunnelRange, stepsOf } from "./funnel-store";

const TODAY = "(now() AT TIME ZONE 'UTC')::date";

export const FUNNEL_ANSWERS_SQL = {
  /** The answers to questions `$1` of the sign-ups of the last `$2` days (all when NULL), by value and status now. */
  byAnswer: `SELECT question_id, value, status, sum(count)::bigint AS count FROM waitlist_answer_tally
    WHERE question_id = ANY($1::text[]) AND ($2::int IS NULL OR day > ${TODAY} - $2::int)
    GROUP BY question_id, value, status HAVING sum(count) <> 0`,
} as const;

export async function answerFunnel(
  db: Db,
  range: FunnelRange,
  questions: readonly Question[] = QUESTIONS,
): Promise<AnswerFunnel[]> {
  const asked = questions.filter(isChoice);
  if (asked.length === 0) return [];
  type Row = { question_id: string; value: string; status: EntryStatus; count: number | string };
  const rows = await db.query<Row>(FUNNEL_ANSWERS_SQL.byAnswer, [
    asked.map((q) => q.id),
    range === "all" ? null : Number(range),
  ]);
  return asked.map((question) => ({
    question,
    rows: question.options.flatMap((value) => {
      const counts: Partial<Record<EntryStatus, number>> = {};
      for (const row of rows) {
        if (row.question_id === question.id && row.value === value) counts[row.status] = Number(row.count);
      }
      const steps = stepsOf(value, counts);
      return steps.signedUp > 0 ? [steps] : [];
    }),
  }));
}
