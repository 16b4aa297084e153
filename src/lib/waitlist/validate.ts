/**
 * The browser's validator (the dialog's), built from rules.ts with no dependency, so the island stays small.
 * The function validates with schema.ts, built from the same spec.
 */
import type { Question } from "./questions";
import {
  ANSWER_MESSAGES,
  ANSWER_PREFIX,
  type Answers,
  BRIEF_FIELDS,
  type BriefField,
  characters,
  EARLY_CHECKS,
  EMAIL_PATTERN,
  type FieldKey,
  LINE_BREAK,
  MESSAGES,
  type Signup,
  type SignupInput,
  singleLineMessage,
  UNSTORABLE,
  type Validation,
} from "./rules";

const invalid = (message: string, field: FieldKey): Validation => ({
  ok: false,
  title: MESSAGES.validationTitle,
  message,
  field,
});

type Check<T> = { error: string } | { value: T | undefined };

/** A brief field on its trimmed value: undefined when absent (the address is checked by its own rules). */
function checkField(field: BriefField, raw: unknown): Check<string> {
  if (field.kind === "email") {
    if (typeof raw !== "string") return { error: MESSAGES.emailInvalid };
    const email = raw.trim();
    if (!EMAIL_PATTERN.test(email)) return { error: MESSAGES.emailInvalid };
    return characters(email) > field.max ? { error: field.message } : { value: email };
  }
  if (raw === undefined || raw === null) return { value: undefined };
  if (typeof raw !== "string") return { error: `${field.name} must be text` };
  const text = raw.trim();
  if (UNSTORABLE.test(text)) return { error: MESSAGES.characters };
  if (!field.multiline && LINE_BREAK.test(text)) return { error: singleLineMessage(field.name) };
  return characters(text) > field.max ? { error: field.message } : { value: text };
}

/** One answer, trimmed: a text, an option, or the options ticked (in the question's order); undefined: none. */
function checkAnswer(question: Question, raw: unknown): Check<string | string[]> {
  const { label } = question;
  const missing = () => (question.required ? { error: ANSWER_MESSAGES.required(label) } : { value: undefined });
  if (raw === undefined || raw === null) return missing();
  if (question.type === "multiple") {
    const given = typeof raw === "string" ? [raw] : raw;
    if (!Array.isArray(given) || given.some((item) => typeof item !== "string")) {
      return { error: ANSWER_MESSAGES.notOption(label) };
    }
    const picked = new Set(given.map((item: string) => item.trim()).filter((item) => item !== ""));
    if ([...picked].some((item) => !question.options.includes(item)))
      return { error: ANSWER_MESSAGES.notOption(label) };
    return picked.size === 0 ? missing() : { value: question.options.filter((option) => picked.has(option)) };
  }
  if (typeof raw !== "string") {
    return { error: question.type === "text" ? ANSWER_MESSAGES.notText(label) : ANSWER_MESSAGES.notOption(label) };
  }
  const text = raw.trim();
  if (text === "") return missing();
  if (question.type === "choice") {
    return question.options.includes(text) ? { value: text } : { error: ANSWER_MESSAGES.notOption(label) };
  }
  if (UNSTORABLE.test(text)) return { error: MESSAGES.characters };
  if (LINE_BREAK.test(text)) return { error: ANSWER_MESSAGES.singleLine(label) };
  return characters(text) > question.max ? { error: ANSWER_MESSAGES.tooLong(label, question.max) } : { value: text };
}

/**
 * docs/brief.md §3's checks, in its order: the early checks, then each brief field on its trimmed value (name,
 * email, organization, why, connect), then the team's questions in their order. Resolves to the trimmed sign-up
 * to post, or the first failure, naming the control to mark.
 */
export function validateInBrowser(input: SignupInput, questions: readonly Question[] = []): Validation {
  const early = EARLY_CHECKS.find((check) => check.fails(input));
  if (early) return { ok: false, title: early.title, message: early.message, field: early.field };
  const value: Signup = { email: "" };
  for (const field of BRIEF_FIELDS) {
    const result = checkField(field, input[field.key]);
    if ("error" in result) return invalid(result.error, field.key);
    if (result.value !== undefined) value[field.key] = result.value;
  }
  const given = input.answers ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    return { ok: false, title: MESSAGES.validationTitle, message: ANSWER_MESSAGES.shape };
  }
  const answers: Answers = {};
  for (const question of questions) {
    const raw = Object.hasOwn(given, question.id) ? (given as Record<string, unknown>)[question.id] : undefined;
    const result = checkAnswer(question, raw);
    if ("error" in result) return invalid(result.error, `${ANSWER_PREFIX}${question.id}`);
    if (result.value !== undefined) answers[question.id] = result.value;
  }
  if (Object.keys(answers).length > 0) value.answers = answers;
  return { ok: true, value };
}
