/**
 * The team's own questions, asked after the brief's fields: src/content/questions.json, in display order. The file
 * is checked at build (questions-file.ts, zod: the build stops with the question and the problem named), so here
 * it is only read and its defaults filled in. Everything that asks, checks, stores, shows, filters or exports an
 * answer reads this list by question id: adding a question is editing that one file.
 */
import file from "../../content/questions.json" with { type: "json" };
import { ATTRIBUTION_FIELDS } from "./attribution";

export const QUESTION_TYPES = ["choice", "multiple", "text"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A question as the file declares it (questions-file.ts checks every rule). */
export interface QuestionEntry {
  id: string;
  label: string;
  type: QuestionType;
  options?: readonly string[] | undefined;
  required?: boolean | undefined;
  hint?: string | undefined;
  max?: number | undefined;
}

/** A question with its defaults filled in. */
export interface Question {
  id: string;
  label: string;
  type: QuestionType;
  /** `choice` and `multiple`: the options, in order; `text`: none. */
  options: readonly string[];
  required: boolean;
  hint?: string | undefined;
  /** `text`: the most characters an answer may have. */
  max: number;
}

/** A text answer's limit when the file names none. */
export const TEXT_ANSWER_MAX = 200;
/** At most this many questions: a form people finish (MakeEmWait's limit too). */
export const MAX_QUESTIONS = 10;

export const withDefaults = (entries: readonly QuestionEntry[]): Question[] =>
  entries.map((entry) => ({
    id: entry.id,
    label: entry.label,
    type: entry.type,
    options: entry.type === "text" ? [] : [...(entry.options ?? [])],
    required: entry.required ?? false,
    ...(entry.hint ? { hint: entry.hint } : {}),
    max: entry.max ?? TEXT_ANSWER_MAX,
  }));

/**
 * The export's own columns, before one per question (src/server/export/rows.ts writes them). New columns go at the
 * end, so a reader of the earlier ones keeps working: `status` (double opt-in), when the person was invited and
 * joined, where the sign-up came from, then the answers on their own and the consent record (the terms agreed to at
 * created_at, and when the address was confirmed), then referrals (the person's share code, the address of whoever
 * shared the link they came by, and how many of their own referrals count). A question's id heads its own column,
 * so it may be none of these (questions-file.ts).
 */
export const EXPORT_COLUMNS = [
  "created_at",
  "name",
  "email",
  "message",
  "status",
  "invited_at",
  "joined_at",
  ...ATTRIBUTION_FIELDS,
  "organization",
  "why",
  "connect",
  "terms_version",
  "confirmed_at",
  "referral_code",
  "referred_by",
  "referrals",
] as const;

/** The export's column after the questions': answers to questions since removed, as JSON by id. */
export const NO_LONGER_ASKED = "answers_no_longer_asked";

/** The questions asked today (an empty file: none, and the form is the brief's alone). */
export const QUESTIONS: readonly Question[] = withDefaults(file as unknown as QuestionEntry[]);

/** Choices are kept in clear (filterable); text answers are sealed with the other free text. */
export const isChoice = (question: Pick<Question, "type">) => question.type !== "text";

/** The question asked under this id today, or undefined (an answer to a question since removed). */
export const questionById = (questions: readonly Question[], id: string) => questions.find((q) => q.id === id);
