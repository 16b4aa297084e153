/**
 * The check of src/content/questions.json, run at build (src/integrations/questions-check.ts) with zod: an error
 * names the question (its place and id) and the problem, and the build stops. Never imported by the site or the
 * functions (full zod stays out of both); they read the file through questions.ts.
 */
import { z } from "astro/zod";
import {
  EXPORT_COLUMNS,
  MAX_QUESTIONS,
  NO_LONGER_ASKED,
  QUESTION_TYPES,
  type Question,
  type QuestionEntry,
  withDefaults,
} from "./questions";
import { LINE_BREAK, UNSTORABLE } from "./rules";

export class QuestionsFileError extends Error {
  override name = "QuestionsFileError";
}

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/**
 * Names an export already uses for its own columns (`answers`: the JSON export's key for them all): a question under
 * one of them would give a file two columns of one name.
 */
export const RESERVED_IDS = [...EXPORT_COLUMNS, "answers", NO_LONGER_ASKED] as const;
const line = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, { error: `${what} must not be empty` })
    .max(max, { error: `${what} must be at most ${max} characters` })
    .refine((value) => !UNSTORABLE.test(value) && !LINE_BREAK.test(value), {
      error: `${what} must be one line of plain text`,
    });

const QUESTION = z
  .strictObject(
    {
      id: z
        .string({ error: "id must be text" })
        .max(40, { error: "id must be at most 40 characters" })
        .regex(ID, { error: "id must be lowercase letters, digits and single hyphens (a-z0-9-), like team-size" })
        .refine((id) => !(RESERVED_IDS as readonly string[]).includes(id), {
          error: "id is the name of one of the export's own columns: choose another",
        }),
      label: line("label", 200),
      type: z.enum(QUESTION_TYPES, { error: `type must be one of ${QUESTION_TYPES.join(", ")}` }),
      options: z.array(line("an option", 100), { error: "options must be a list of texts" }).optional(),
      required: z.boolean({ error: "required must be true or false" }).optional(),
      hint: line("hint", 200).optional(),
      max: z
        .number({ error: "max must be a number" })
        .int({ error: "max must be a whole number" })
        .min(1, { error: "max must be at least 1" })
        .max(1000, { error: "max must be at most 1000" })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown key ${issue.keys.join(", ")}`
          : issue.code === "invalid_type"
            ? "must be an object with id, label and type"
            : undefined,
    },
  )
  .superRefine((question, context) => {
    const options = question.options ?? [];
    if (question.type === "text") {
      if (question.options !== undefined)
        context.addIssue({ code: "custom", message: "a text question has no options" });
      return;
    }
    if (question.max !== undefined)
      context.addIssue({ code: "custom", message: `a ${question.type} question has no max` });
    if (options.length === 0)
      context.addIssue({ code: "custom", message: `a ${question.type} question needs options` });
    if (options.length > 20) context.addIssue({ code: "custom", message: "at most 20 options" });
    const twice = options.find((option, i) => options.indexOf(option) !== i);
    if (twice !== undefined) context.addIssue({ code: "custom", message: `option "${twice}" is listed twice` });
  });

/** Where in the file a question is, in words: its place and, when it has a readable one, its id. */
function whichQuestion(raw: unknown, index: number): string {
  const id = raw && typeof raw === "object" ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" && id !== "" ? `question ${index + 1} ("${id}")` : `question ${index + 1}`;
}

/** The file's questions with their defaults, or a QuestionsFileError naming the question and the problem. */
export function checkQuestions(raw: unknown, file = "src/content/questions.json"): Question[] {
  const fail = (message: string): never => {
    throw new QuestionsFileError(`${file}: ${message}`);
  };
  if (!Array.isArray(raw)) return fail("must be a list of questions ([] for none)");
  if (raw.length > MAX_QUESTIONS) fail(`at most ${MAX_QUESTIONS} questions (it has ${raw.length})`);
  const entries: QuestionEntry[] = raw.map((item, index) => {
    const result = QUESTION.safeParse(item);
    if (result.success) return result.data;
    const [issue] = result.error.issues;
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return fail(`${whichQuestion(item, index)}: ${where}${issue?.message ?? "is not a question"}`);
  });
  entries.forEach((entry, index) => {
    const first = entries.findIndex((other) => other.id === entry.id);
    if (first !== index) fail(`question ${index + 1}: id "${entry.id}" is already used by question ${first + 1}`);
  });
  return withDefaults(entries);
}
