/**
 * The sign-up as data (docs/brief.md §2–§3): limits, messages, patterns, the fields and the order of checks.
 * Both validators are built from it and neither calls the other: validate.ts, dependency-free, for the
 * browser; schema.ts, zod, for the function. A property test holds the two to the same verdicts.
 */

/** Inclusive character limits from docs/brief.md. */
export const LIMITS = { name: 100, email: 255, organization: 200, why: 1000, connect: 1000 } as const;

/** Every user-facing string of the form, word for word from docs/brief.md. */
export const MESSAGES = {
  emailRequired: { title: "Email required", description: "Please provide your email address." },
  termsRequired: { title: "Terms of Service", description: "Please accept the Terms of Service to continue." },
  validationTitle: "Validation error",
  name: "Name must be less than 100 characters",
  emailInvalid: "Invalid email address",
  emailLength: "Email must be less than 255 characters",
  organization: "Organization must be less than 200 characters",
  response: "Response must be less than 1000 characters",
  /**
   * Not in docs/brief.md: text Postgres cannot store (NUL), that is not valid Unicode (lone surrogates), control
   * characters, or text-direction overrides that could disguise what a row says.
   */
  characters:
    "Please remove unsupported characters (such as control characters, text-direction overrides or broken emoji).",
  failure: { title: "Error", description: "Failed to submit. Please try again." },
  /** Not in docs/brief.md: the answer to HTTP 429 from the rate limit. */
  rateLimited: { title: "Too many attempts", description: "Please wait a few minutes and try again." },
  success: { title: "Success!", description: "You've been added to the waitlist." },
} as const;

/**
 * Not in docs/brief.md: the answers to the team's own questions (src/content/questions.json), each naming the
 * question by its label, so a person knows which one to fix.
 */
export const ANSWER_MESSAGES = {
  required: (label: string) => `Please answer "${label}"`,
  notOption: (label: string) => `Please choose one of the options for "${label}"`,
  notText: (label: string) => `The answer to "${label}" must be text`,
  tooLong: (label: string, max: number) => `The answer to "${label}" must be at most ${max} characters`,
  singleLine: (label: string) => `The answer to "${label}" must be a single line.`,
  shape: "Answers must be sent as an object keyed by question id.",
} as const;

/**
 * What no field may hold: C0 and C1 control characters other than tab and line breaks (NUL, which Postgres
 * rejects, terminal escapes…), the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), and UTF-16 surrogates without their pair.
 */
export const UNSTORABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Tab and line breaks, Unicode's line and paragraph separators (U+2028, U+2029) included: allowed in the two long
 * answers (why, connect) only; elsewhere a field is one line.
 */
export const LINE_BREAK = /[\t\n\r\u2028\u2029]/;

/**
 * How long a text is for the limits: in characters (code points), as people count, so an emoji is one, not the two
 * UTF-16 units JavaScript's `length` would say. Both validators count with this.
 */
export const characters = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

/** zod's own e-mail pattern (`regexes.email` in zod/v4/core), so both validators agree; a test checks it. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * An address typed alone into a form (a removal or a status link asked for, the console's sign-in and removal),
 * trimmed, or undefined when a sign-up would refuse it (empty, over LIMITS.email, not EMAIL_PATTERN): every such
 * form takes exactly the addresses the list can hold, so none looks a row up by one it never could.
 */
export function givenAddress(value: string | undefined): string | undefined {
  const email = (value ?? "").trim();
  return email !== "" && email.length <= LIMITS.email && EMAIL_PATTERN.test(email) ? email : undefined;
}

/**
 * The registry of the brief's fields, in form order: every part of the site that asks, checks, stores, shows or
 * exports a field reads it here, by its key, never by its place. `label` is the form's, `name` the one a message
 * uses; `prefix` starts the field's paragraph in the combined `message` (docs/brief.md §4); `pair` fields share a
 * row on wide screens. The team's own questions follow these (questions.ts).
 */
export const BRIEF_FIELDS = [
  {
    kind: "text",
    key: "name",
    label: "Name",
    name: "Name",
    hint: "(optional)",
    autoComplete: "name",
    max: LIMITS.name,
    message: MESSAGES.name,
    multiline: false,
    pair: true,
  },
  {
    kind: "email",
    key: "email",
    label: "Email",
    name: "Email",
    hint: "(required)",
    autoComplete: "email",
    max: LIMITS.email,
    message: MESSAGES.emailLength,
    multiline: false,
    pair: true,
  },
  {
    kind: "text",
    key: "organization",
    label: "Organization",
    name: "Organization",
    hint: "(optional)",
    autoComplete: "organization",
    max: LIMITS.organization,
    message: MESSAGES.organization,
    multiline: false,
    prefix: "Organization: ",
  },
  {
    kind: "text",
    key: "why",
    label: "Why are you interested?",
    name: "Why",
    hint: "(optional)",
    max: LIMITS.why,
    message: MESSAGES.response,
    multiline: true,
    prefix: "Why: ",
  },
  {
    kind: "text",
    key: "connect",
    label: "How would you like to connect or contribute?",
    name: "Connect",
    hint: "(optional)",
    max: LIMITS.connect,
    message: MESSAGES.response,
    multiline: true,
    prefix: "Connect: ",
  },
] as const;

export type BriefField = (typeof BRIEF_FIELDS)[number];
/** The brief's optional text fields (all but the address), in form order. */
export type TextField = Extract<BriefField, { kind: "text" }>;
export const TEXT_FIELDS: readonly TextField[] = BRIEF_FIELDS.filter(
  (field): field is TextField => field.kind === "text",
);
export type TextKey = TextField["key"];

/** Not in docs/brief.md: the answer to a line break or tab in a one-line field. */
export const singleLineMessage = (label: string) => `${label} must be a single line.`;

/** A validated sign-up: trimmed values; absent optional fields stay absent. */
export type Signup = { email: string; answers?: Answers | undefined } & { [K in TextKey]?: string | undefined };

/** A person's answers to the team's questions, by question id: a choice or text as a string, `multiple` as a list. */
export type Answers = Record<string, string | string[]>;

/**
 * The honeypot: a field people never see or fill (hidden from sight, screen readers and the tab order, and
 * named so password managers leave it alone). A sign-up that fills it is answered as a success and dropped.
 */
export const HONEYPOT_FIELD = "homepage";

/** The field carrying a solved proof-of-work (ALTCHA payload) past a network's free allowance. */
export const PROOF_FIELD = "altcha";

/** What the form holds while a person types. */
export type SignupForm = { email: string; termsAccepted: boolean; answers: Answers } & Record<TextKey, string>;

/** The control a failure marks: a brief field, the terms, or a question (`answer:<id>`). */
export type FieldKey = Exclude<keyof SignupForm, "answers"> | `${typeof ANSWER_PREFIX}${string}`;

/** A question's control is named `answer:<id>` (a checkbox of `multiple`: `answer:<id>:<n>`, n its option's place). */
export const ANSWER_PREFIX = "answer:";

/** A failure names its field where it has one, so the dialog can mark that control as well as toast. */
export type Validation = { ok: true; value: Signup } | { ok: false; title: string; message: string; field?: FieldKey };

export type SignupInput = Partial<Record<keyof SignupForm, unknown>>;

/** The dialog's state: the form and the honeypot. */
export type DialogValues = SignupForm & { [HONEYPOT_FIELD]: string };

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * The checks before the fields, in docs/brief.md §3's order: email empty, then terms not accepted (which
 * counts only `true` as accepted). Each validator runs these first, then BRIEF_FIELDS in order, then the
 * team's questions in theirs.
 */
export const EARLY_CHECKS: ReadonlyArray<{
  fails: (input: SignupInput) => boolean;
  title: string;
  message: string;
  field: FieldKey;
}> = [
  {
    field: "email",
    fails: (input) => isBlank(input.email),
    ...{ title: MESSAGES.emailRequired.title, message: MESSAGES.emailRequired.description },
  },
  {
    field: "termsAccepted",
    fails: (input) => input.termsAccepted !== true,
    ...{ title: MESSAGES.termsRequired.title, message: MESSAGES.termsRequired.description },
  },
];
