/**
 * The waitlist's rules, shared by the dialog island and the function: limits, messages, the order of checks.
 * Built on `zod/mini` so the island ships a few KB, not the whole of zod.
 */
import { z } from "zod/mini";

/** Inclusive character limits from the brief. */
export const LIMITS = { name: 100, email: 255, organization: 200, why: 1000, connect: 1000 } as const;

/** Every user-facing string of the form, word for word from the brief. */
export const MESSAGES = {
  emailRequired: { title: "Email required", description: "Please provide your email address." },
  termsRequired: { title: "Terms of Service", description: "Please accept the Terms of Service to continue." },
  validationTitle: "Validation error",
  name: "Name must be less than 100 characters",
  emailInvalid: "Invalid email address",
  emailLength: "Email must be less than 255 characters",
  organization: "Organization must be less than 200 characters",
  response: "Response must be less than 1000 characters",
  /** Not in the brief: text Postgres cannot store (NUL) or that is not valid Unicode (lone surrogates). */
  characters: "Please remove unsupported characters (such as NUL or broken emoji).",
  failure: { title: "Error", description: "Failed to submit. Please try again." },
  /** Not in the brief: the answer to HTTP 429 from the rate limit. */
  rateLimited: { title: "Too many attempts", description: "Please wait a few minutes and try again." },
  success: { title: "Success!", description: "You've been added to the waitlist." },
} as const;

/** NUL (which Postgres rejects in text) or a UTF-16 surrogate without its pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = z.refine<string>((value) => !UNSTORABLE.test(value), { error: MESSAGES.characters });

const text = (label: string, max: number, message: string) =>
  z.string({ error: `${label} must be text` }).check(z.trim(), storable, z.maxLength(max, message));

/** The schema on trimmed values; the order of keys is the order messages are reported in. */
export const signupSchema = z.object({
  name: z.optional(text("Name", LIMITS.name, MESSAGES.name)),
  email: z
    .string({ error: MESSAGES.emailInvalid })
    .check(z.trim(), z.email(MESSAGES.emailInvalid), z.maxLength(LIMITS.email, MESSAGES.emailLength)),
  organization: z.optional(text("Organization", LIMITS.organization, MESSAGES.organization)),
  why: z.optional(text("Why", LIMITS.why, MESSAGES.response)),
  connect: z.optional(text("Connect", LIMITS.connect, MESSAGES.response)),
});

export type Signup = z.infer<typeof signupSchema>;

/**
 * The honeypot: a field people never see or fill (hidden from sight, screen readers and the tab order, and
 * named so password managers leave it alone). A sign-up that fills it is answered as a success and dropped.
 */
export const HONEYPOT_FIELD = "homepage";

/** What the dialog holds and posts. */
export interface SignupForm {
  name: string;
  email: string;
  organization: string;
  why: string;
  connect: string;
  termsAccepted: boolean;
}

export type Validation = { ok: true; value: Signup } | { ok: false; title: string; message: string };

/**
 * The brief's checks, in its order: email empty, then terms not accepted, then the schema on trimmed values.
 * `termsAccepted` counts only when it is exactly `true`.
 */
export function validateSignup(input: Partial<Record<keyof SignupForm, unknown>>): Validation {
  if (
    input.email === undefined ||
    input.email === null ||
    (typeof input.email === "string" && input.email.trim() === "")
  ) {
    return { ok: false, title: MESSAGES.emailRequired.title, message: MESSAGES.emailRequired.description };
  }
  if (input.termsAccepted !== true) {
    return { ok: false, title: MESSAGES.termsRequired.title, message: MESSAGES.termsRequired.description };
  }
  const result = signupSchema.safeParse({
    name: input.name ?? undefined,
    email: input.email,
    organization: input.organization ?? undefined,
    why: input.why ?? undefined,
    connect: input.connect ?? undefined,
  });
  if (!result.success) {
    return {
      ok: false,
      title: MESSAGES.validationTitle,
      message: result.error.issues[0]?.message ?? MESSAGES.emailInvalid,
    };
  }
  return { ok: true, value: result.data };
}
