/**
 * The function's validator, in zod/mini, built from rules.ts: the same limits, messages, patterns and order
 * as the browser's (validate.ts), neither calling the other.
 * zod is loaded on first use (`loadValidator`), so importing the function stays light and the answers that
 * need no validation (405, 415, 413) never pay for it; its parts come through zod-mini.ts (which says why).
 */
import { QUESTIONS, type Question } from "./questions";
// Each rule read as `rules.X`: visibly the spec's, not the schema's own.
import * as rules from "./rules";

export type Validator = (input: rules.SignupInput) => rules.Validation;

/** What the schema is built from: zod/mini's functions, as zod-mini.ts gives them. */
type ZodParts = typeof import("./zod-mini");

/** The schema on trimmed values; the order of keys is the order messages are reported in. */
export function createSignupSchema(z: ZodParts, questions: readonly Question[] = []) {
  const storable = z.refine<string>((value) => !rules.UNSTORABLE.test(value), { error: rules.MESSAGES.characters });
  const oneLine = (message: string) => z.refine<string>((value) => !rules.LINE_BREAK.test(value), { error: message });
  // In characters (code points), as the browser's validator counts: zod's maxLength counts UTF-16 units.
  const atMost = (max: number, message: string) =>
    z.refine<string>((value) => rules.characters(value) <= max, { error: message });
  const field = (spec: rules.BriefField) =>
    spec.kind === "email"
      ? z
          .string({ error: rules.MESSAGES.emailInvalid })
          .check(
            z.trim(),
            z.email({ pattern: rules.EMAIL_PATTERN, error: rules.MESSAGES.emailInvalid }),
            atMost(spec.max, spec.message),
          )
      : z.optional(
          z
            .string({ error: `${spec.name} must be text` })
            .check(
              z.trim(),
              storable,
              ...(spec.multiline ? [] : [oneLine(rules.singleLineMessage(spec.name))]),
              atMost(spec.max, spec.message),
            ),
        );
  const answer = (question: Question) => {
    const { label, options, required } = question;
    const notOption = rules.ANSWER_MESSAGES.notOption(label);
    const answered = z.refine<string | string[]>((value) => !required || value.length > 0, {
      error: rules.ANSWER_MESSAGES.required(label),
    });
    const known = z.refine<string>((value) => value === "" || options.includes(value), { error: notOption });
    if (question.type === "multiple") {
      const list = z.array(z.string({ error: notOption }), { error: notOption }).check(
        z.overwrite((items) => [...new Set(items.map((item) => item.trim()).filter((item) => item !== ""))]),
        z.refine((items) => items.every((item) => options.includes(item)), { error: notOption }),
        answered,
        z.overwrite((items) => options.filter((option) => items.includes(option))),
      );
      return z.pipe(
        z.transform((value: unknown) => (typeof value === "string" ? [value] : (value ?? []))),
        list,
      );
    }
    const text =
      question.type === "choice"
        ? z.string({ error: notOption }).check(z.trim(), answered, known)
        : z
            .string({ error: rules.ANSWER_MESSAGES.notText(label) })
            .check(
              z.trim(),
              answered,
              storable,
              oneLine(rules.ANSWER_MESSAGES.singleLine(label)),
              atMost(question.max, rules.ANSWER_MESSAGES.tooLong(label, question.max)),
            );
    return z.pipe(
      z.transform((value: unknown) => value ?? ""),
      text,
    );
  };
  return z.object({
    ...Object.fromEntries(rules.BRIEF_FIELDS.map((spec) => [spec.key, field(spec)])),
    answers: z.object(Object.fromEntries(questions.map((question) => [question.id, answer(question)])), {
      error: rules.ANSWER_MESSAGES.shape,
    }),
  });
}

/** Own keys only: an answer is never read from Object.prototype (a question may be called "constructor"). */
const ownAnswers = (answers: unknown) =>
  answers === undefined || answers === null || (typeof answers === "object" && !Array.isArray(answers))
    ? Object.assign(Object.create(null) as object, answers)
    : answers;

/** The answers a person gave: empty ones left out; none at all, undefined. */
function givenAnswers(parsed: Record<string, string | string[]>): rules.Answers | undefined {
  const given = Object.entries(parsed).filter(([, value]) => value.length > 0);
  return given.length > 0 ? Object.fromEntries(given) : undefined;
}

/** The control an issue is about (as the browser's validator names it), so /join can mark it. */
function fieldOf(path: readonly PropertyKey[]): rules.FieldKey | undefined {
  const [key, id] = path;
  if (key === "answers") return typeof id === "string" ? `${rules.ANSWER_PREFIX}${id}` : undefined;
  return rules.BRIEF_FIELDS.find((field) => field.key === key)?.key;
}

/** docs/brief.md's checks in its order, the schema last; unknown fields are dropped. */
export function createValidator(z: ZodParts, questions: readonly Question[] = QUESTIONS): Validator {
  const schema = createSignupSchema(z, questions);
  return (input) => {
    const early = rules.EARLY_CHECKS.find((check) => check.fails(input));
    if (early) return { ok: false, title: early.title, message: early.message, field: early.field };
    const result = schema.safeParse({
      ...Object.fromEntries(rules.BRIEF_FIELDS.map((spec) => [spec.key, input[spec.key] ?? undefined])),
      email: input.email,
      answers: ownAnswers(input.answers),
    });
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = fieldOf(issue?.path ?? []);
      return {
        ok: false,
        title: rules.MESSAGES.validationTitle,
        message: issue?.message ?? rules.MESSAGES.emailInvalid,
        ...(field ? { field } : {}),
      };
    }
    const { answers, ...fields } = result.data as Record<string, unknown> & {
      answers: Record<string, string | string[]>;
    };
    const given = givenAnswers(answers);
    const value = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as rules.Signup;
    return { ok: true, value: given ? { ...value, answers: given } : value };
  };
}

let loading: Promise<Validator> | undefined;

/** The validator, zod loaded on the first call and kept. */
export function loadValidator(): Promise<Validator> {
  loading ??= import("./zod-mini").then((z) => createValidator(z));
  return loading;
}
