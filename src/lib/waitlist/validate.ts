/**
 * The browser's validator (the dialog's), built from rules.ts with no dependency, so the island stays small.
 * The function validates with schema.ts, built from the same spec.
 */
import {
  characters,
  EARLY_CHECKS,
  EMAIL_PATTERN,
  LIMITS,
  LINE_BREAK,
  MESSAGES,
  type Signup,
  type SignupForm,
  type SignupInput,
  singleLineMessage,
  TEXT_FIELDS,
  UNSTORABLE,
  type Validation,
} from "./rules";

const invalid = (message: string, field: keyof SignupForm): Validation => ({
  ok: false,
  title: MESSAGES.validationTitle,
  message,
  field,
});

/**
 * docs/brief.md §3's checks, in its order: the early checks, then each field on its trimmed value (name,
 * email, organization, why, connect). Resolves to the trimmed sign-up to post, or the first failure.
 */
export function validateInBrowser(input: SignupInput): Validation {
  const early = EARLY_CHECKS.find((check) => check.fails(input));
  if (early) return { ok: false, title: early.title, message: early.message, field: early.field };
  const value: Signup = { email: "" };
  const checkText = ({ key, label, max, message, multiline }: (typeof TEXT_FIELDS)[number]): string | null => {
    const raw = input[key];
    if (raw === undefined || raw === null) return null;
    if (typeof raw !== "string") return `${label} must be text`;
    const text = raw.trim();
    if (UNSTORABLE.test(text)) return MESSAGES.characters;
    if (!multiline && LINE_BREAK.test(text)) return singleLineMessage(label);
    if (characters(text) > max) return message;
    value[key] = text;
    return null;
  };
  const checkEmail = (): string | null => {
    if (typeof input.email !== "string") return MESSAGES.emailInvalid;
    value.email = input.email.trim();
    if (!EMAIL_PATTERN.test(value.email)) return MESSAGES.emailInvalid;
    return characters(value.email) > LIMITS.email ? MESSAGES.emailLength : null;
  };

  const [name, ...others] = TEXT_FIELDS;
  const checks: Array<[keyof SignupForm, () => string | null]> = [
    [name.key, () => checkText(name)],
    ["email", checkEmail],
    ...others.map((field): [keyof SignupForm, () => string | null] => [field.key, () => checkText(field)]),
  ];
  for (const [field, check] of checks) {
    const error = check();
    if (error) return invalid(error, field);
  }
  return { ok: true, value };
}
