/** What the segments read from the database: how many gave each option (the People filters' counts). */
import { isChoice, QUESTIONS, type Question } from "../../lib/waitlist/questions";
import type { Db } from "../db/types";
import { SEGMENT_SQL } from "./sql";

/** A choice question and its options, each with how many people gave it. */
export interface OfferedQuestion {
  question: Question;
  options: Array<{ value: string; count: number }>;
}

export function createSegmentStore(db: Db, questions: readonly Question[] = QUESTIONS) {
  return {
    /** Every choice question asked today, each option with its count (0 included), in the file's order. */
    async offered(): Promise<OfferedQuestion[]> {
      const asked = questions.filter(isChoice);
      if (asked.length === 0) return [];
      const rows = await db.query<{ question_id: string; value: string; count: string | number }>(SEGMENT_SQL.offered, [
        asked.map((q) => q.id),
      ]);
      const count = (id: string, value: string) =>
        Number(rows.find((row) => row.question_id === id && row.value === value)?.count ?? 0);
      return asked.map((question) => ({
        question,
        options: question.options.map((value) => ({ value, count: count(question.id, value) })),
      }));
    },
  };
}
