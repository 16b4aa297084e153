/**
 * A segment: the people who gave certain answers, as `{ "team-size": ["50+", "11–50"], "tools": ["Roam"] }`. The
 * values of one question are alternatives (OR), different questions must all hold (AND). Only choice and multiple
 * questions can be asked about (their answers are kept in clear, migration 0022; text answers are sealed), and only
 * by the options questions.json gives them: anything else is a SegmentError naming the question and what it offers.
 * One definition for the People page, waves, updates, the funnel and the CLI; sql.ts says how it is matched.
 */
import { isChoice, QUESTIONS, type Question, questionById } from "../../lib/waitlist/questions";

/** Question id → the values any one of which it must have; an empty object matches everyone. */
export type Segment = Readonly<Record<string, readonly string[]>>;

export class SegmentError extends Error {
  override name = "SegmentError";
}

/**
 * The most containments a segment may compile to (the product of its questions' value counts, sql.ts): far past
 * what anyone picks, and a bound on the index lookups one filter makes.
 */
export const MAX_COMBINATIONS = 1000;

const ids = (questions: readonly Question[]) =>
  questions
    .filter(isChoice)
    .map((q) => q.id)
    .join(", ");

/** `given` checked against the questions asked today: its values in their options' order, each question once. */
export function checkSegment(
  given: Readonly<Record<string, readonly string[]>>,
  questions: readonly Question[] = QUESTIONS,
): Segment {
  const checked: Record<string, string[]> = {};
  for (const [id, values] of Object.entries(given)) {
    const question = questionById(questions, id);
    if (!question) {
      const offered = ids(questions);
      throw new SegmentError(
        `there is no question "${id}" in questions.json${offered ? ` (choice questions: ${offered})` : " (it asks no choice question)"}`,
      );
    }
    if (!isChoice(question)) {
      throw new SegmentError(`"${id}" is a text question: its answers are sealed, so nobody can be chosen by them`);
    }
    const unknown = values.find((value) => !question.options.includes(value));
    if (unknown !== undefined) {
      throw new SegmentError(
        `"${unknown}" is not an option of "${id}" (its options: ${question.options.map((o) => `"${o}"`).join(", ")})`,
      );
    }
    if (values.length === 0) continue;
    checked[id] = question.options.filter((option) => values.includes(option));
  }
  if (combinations(checked) > MAX_COMBINATIONS) {
    throw new SegmentError(`too many answers at once: at most ${MAX_COMBINATIONS} combinations of them`);
  }
  return checked;
}

/** `ID=VALUE` pairs (the CLI's repeated --answer) as a checked segment. */
export function segmentOfPairs(pairs: readonly string[], questions: readonly Question[] = QUESTIONS): Segment {
  const given: Record<string, string[]> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new SegmentError(`--answer takes ID=VALUE, like team-size=50+; not "${pair}"`);
    const [id, value] = [pair.slice(0, at), pair.slice(at + 1)];
    given[id] = [...(given[id] ?? []), value];
  }
  return checkSegment(given, questions);
}

/** Whether a segment narrows anything. */
export const isSegment = (segment: Segment) => Object.keys(segment).length > 0;

const combinations = (segment: Segment) => Object.values(segment).reduce((n, values) => n * values.length, 1);

/**
 * The segment as the JSON objects a row's `choices` must contain one of (every way of taking one value of each
 * question: the ORs multiplied out), each a multiple question's value inside a list as it is stored; null for an
 * empty segment, which matches everyone.
 */
export function containments(segment: Segment, questions: readonly Question[] = QUESTIONS): string[] | null {
  let objects: Array<Record<string, string | string[]>> = [{}];
  for (const [id, values] of Object.entries(segment)) {
    const multiple = questionById(questions, id)?.type === "multiple";
    objects = objects.flatMap((object) => values.map((value) => ({ ...object, [id]: multiple ? [value] : value })));
  }
  return isSegment(segment) ? objects.map((object) => JSON.stringify(object)) : null;
}

/** The segment in words, by its questions' labels: `How big is your team? 50+ or 11–50; Which tools…? Roam`. */
export function describeSegment(segment: Segment, questions: readonly Question[] = QUESTIONS): string {
  return Object.entries(segment)
    .map(([id, values]) => `${questionById(questions, id)?.label ?? id} ${values.join(" or ")}`)
    .join("; ");
}
