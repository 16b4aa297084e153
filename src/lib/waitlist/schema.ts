/**
 * The function's validator, in zod/mini, built from rules.ts: the same limits, messages, patterns and order
 * as the browser's (validate.ts), neither calling the other.
 * zod is loaded on first use (`loadValidator`), so importing the function stays light and the answers that
 * need no validation (405, 415, 413) never pay for it; its parts come through zod-mini.ts (which says why).
 */
// Each rule read as `rules.X`: visibly the spec's, not the schema's own.
import * as rules from "./rules";

export type Validator = (input: rules.SignupInput) => rules.Validation;

/** What the schema is built from: zod/mini's functions, as zod-mini.ts gives them. */
type ZodParts = typeof import("./zod-mini");

/** The schema on trimmed values; the order of keys is the order messages are reported in. */
export function createSignupSchema(z: ZodParts) {
  const storable = z.refine<string>((value) => !rules.UNSTORABLE.test(value), { error: rules.MESSAGES.characters });
  const oneLine = (label: string) =>
    z.refine<string>((value) => !rules.LINE_BREAK.test(value), { error: rules.singleLineMessage(label) });
  // In characters (code points), as the browser's validator counts: zod's maxLength counts UTF-16 units.
  const atMost = (max: number, message: string) =>
    z.refine<string>((value) => rules.characters(value) <= max, { error: message });
  const text = ({ label, max, message, multiline }: (typeof rules.TEXT_FIELDS)[number]) =>
    z.optional(
      z
        .string({ error: `${label} must be text` })
        .check(z.trim(), storable, ...(multiline ? [] : [oneLine(label)]), atMost(max, message)),
    );
  const [name, organization, why, connect] = rules.TEXT_FIELDS.map(text);
  return z.object({
    name: name as ReturnType<typeof text>,
    email: z
      .string({ error: rules.MESSAGES.emailInvalid })
      .check(
        z.trim(),
        z.email({ pattern: rules.EMAIL_PATTERN, error: rules.MESSAGES.emailInvalid }),
        atMost(rules.LIMITS.email, rules.MESSAGES.emailLength),
      ),
    organization: organization as ReturnType<typeof text>,
    why: why as ReturnType<typeof text>,
    connect: connect as ReturnType<typeof text>,
  });
}

/** docs/brief.md's checks in its order, the schema last; unknown fields are dropped. */
export function createValidator(z: ZodParts): Validator {
  const schema = createSignupSchema(z);
  return (input) => {
    const early = rules.EARLY_CHECKS.find((check) => check.fails(input));
    if (early) return { ok: false, title: early.title, message: early.message };
    const result = schema.safeParse({
      name: input.name ?? undefined,
      email: input.email,
      organization: input.organization ?? undefined,
      why: input.why ?? undefined,
      connect: input.connect ?? undefined,
    });
    if (!result.success) {
      return {
        ok: false,
        title: rules.MESSAGES.validationTitle,
        message: result.error.issues[0]?.message ?? rules.MESSAGES.emailInvalid,
      };
    }
    return { ok: true, value: result.data satisfies rules.Signup };
  };
}

let loading: Promise<Validator> | undefined;

/** The validator, zod loaded on the first call and kept. */
export function loadValidator(): Promise<Validator> {
  loading ??= import("./zod-mini").then((z) => createValidator(z));
  return loading;
}
