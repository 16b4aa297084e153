/**
 * A segment in an address (the console's People page and the forms it leads to): `answer:team-size=50+`, one
 * parameter per question as /join names its fields, an empty value meaning any. Read strictly: an unknown question
 * or option is null (the console answers 400), never a filter quietly dropped.
 */
import { QUESTIONS, type Question } from "../../lib/waitlist/questions";
import { checkSegment, type Segment, SegmentError } from "./segment";

export const ANSWER_PARAM = "answer:";

/** The segment `params` ask for ({} when none), or null when it names a question or option there is not. */
export function answersOf(params: URLSearchParams, questions: readonly Question[] = QUESTIONS): Segment | null {
  const given: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (!key.startsWith(ANSWER_PARAM) || value === "") continue;
    const id = key.slice(ANSWER_PARAM.length);
    given[id] = [...(given[id] ?? []), value];
  }
  try {
    return checkSegment(given, questions);
  } catch (error) {
    if (error instanceof SegmentError) return null;
    throw error;
  }
}
