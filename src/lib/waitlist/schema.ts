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
  failure: { title: "Error", description: "Failed to submit. Please try again." },
  success: { title: "Success!", description: "You've been added to the waitlist." },
} as const;

const text = (max: number, message: string) => z.string().check(z.trim(), z.maxLength(max, message));

/** The schema on trimmed values; the order of keys is the order messages are reported in. */
export const signupSchema = z.object({
  name: z.optional(text(LIMITS.name, MESSAGES.name)),
  email: z.string().check(z.trim(), z.email(MESSAGES.emailInvalid), z.maxLength(LIMITS.email, MESSAGES.emailLength)),
  organization: z.optional(text(LIMITS.organization, MESSAGES.organization)),
  why: z.optional(text(LIMITS.why, MESSAGES.response)),
  connect: z.optional(text(LIMITS.connect, MESSAGES.response)),
});

export type Signup = z.infer<typeof signupSchema>;

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
  if (typeof input.email !== "string" || input.email.trim() === "") {
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
