/**
 * A person's answers to the team's questions, as the console, the exports and the webhooks read them: the text
 * answers (opened from the seal) and the choices (kept in clear) together, by question id, in the file's order,
 * then any answer to a question since removed from the file: still readable, marked as no longer asked.
 */
import { QUESTIONS, type Question } from "../lib/waitlist/questions";
import type { Answers } from "../lib/waitlist/rules";
import { jsonOf } from "./data-key";

export interface ShownAnswer {
  id: string;
  /** The question's label; a removed question's id. */
  label: string;
  value: string | string[];
  /** False: the question was removed from questions.json after this answer was given. */
  asked: boolean;
}

/** The text answers and the choices as one object (the webhook's `answers`), questions asked first. */
export function mergedAnswers(texts: unknown, choices: unknown, questions: readonly Question[] = QUESTIONS): Answers {
  const all: Answers = {
    ...(jsonOf(texts as Answers | string | null) ?? {}),
    ...(jsonOf(choices as Answers | string | null) ?? {}),
  };
  const asked = questions.filter((q) => Object.hasOwn(all, q.id)).map((q) => q.id);
  const removed = Object.keys(all)
    .filter((id) => !asked.includes(id))
    .sort();
  return Object.fromEntries([...asked, ...removed].map((id) => [id, all[id] as string | string[]]));
}

/** Each answer with its label and whether it is still asked, in the order mergedAnswers gives. */
export function shownAnswers(
  texts: unknown,
  choices: unknown,
  questions: readonly Question[] = QUESTIONS,
): ShownAnswer[] {
  return Object.entries(mergedAnswers(texts, choices, questions)).map(([id, value]) => {
    const question = questions.find((q) => q.id === id);
    return { id, label: question?.label ?? id, value, asked: question !== undefined };
  });
}

/** One cell of an export: a list joined by "; ". */
export const answerText = (value: string | string[] | undefined) =>
  value === undefined ? null : Array.isArray(value) ? value.join("; ") : value;

/**
 * The export's answer columns, headed by question id: today's questions in order, then the ids of removed ones
 * that `seen` rows still hold (the console's download learns those from the store, the rest from the rows).
 */
export const answerColumns = (questions: readonly Question[] = QUESTIONS, removed: readonly string[] = []) => [
  ...questions.map((q) => q.id),
  ...removed.filter((id) => !questions.some((q) => q.id === id)),
];
