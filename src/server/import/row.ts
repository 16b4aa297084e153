/**
 * One row's checks, the sign-up's rules (src/lib/waitlist/rules.ts) applied to what another tool kept: an address
 * the sign-up would take, each field within its limit and storable, dates the import can read and not in the
 * future. What fails is refused with its reason, never mended; a cell that looks like a formula is kept as text
 * (the export neutralises it, as it does every sign-up's).
 */
import { characters, EMAIL_PATTERN, LIMITS, LINE_BREAK, UNSTORABLE } from "../../lib/waitlist/rules";
import type { ReadRow } from "./formats";

/** A row that passed: the person, and the dates read from the file. */
export interface CheckedRow {
  email: string;
  name: string | null;
  organization: string | null;
  why: string | null;
  connect: string | null;
  source: string | null;
  signedUpAt: Date | null;
  evidence: { what: string; at: Date | null } | null;
  suppress: string | null;
}

/** The longest source kept, as the sign-up's attribution keeps it. */
const SOURCE_LIMIT = 100;

/**
 * A time as tools write it: ISO 8601 (with or without zone: none is UTC), `YYYY-MM-DD HH:MM[:SS]` (Mailchimp's,
 * in UTC), or a day. Null when it is none of these.
 */
export function readTime(value: string): Date | null {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?)?$/i.exec(
      value.trim(),
    );
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = match;
  const offset = /^(z|utc)$/i.test(zone) ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${offset}`);
  if (Number.isNaN(date.getTime()) || (date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}` && offset === "Z")) {
    return null;
  }
  return date;
}

type Checked = { row: CheckedRow } | { refused: string };

/** A text field's problem (too long, a line break where one line is asked, a character no field may hold). */
function fieldProblem(label: string, value: string | null, max: number, multiline: boolean): string | null {
  if (value === null) return null;
  if (characters(value) > max) return `${label} is longer than ${max} characters`;
  if (UNSTORABLE.test(value)) return `${label} holds a character that cannot be stored`;
  if (!multiline && LINE_BREAK.test(value)) return `${label} must be a single line`;
  return null;
}

/** Checks `read` as of `now` (the import's time): the row, or why it is refused. */
export function checkRow(read: ReadRow, now: Date): Checked {
  const email = read.email.trim();
  if (email === "") return { refused: "no address" };
  if (characters(email) > LIMITS.email) return { refused: `address is longer than ${LIMITS.email} characters` };
  if (!EMAIL_PATTERN.test(email)) return { refused: "invalid address" };
  const problem =
    fieldProblem("name", read.name, LIMITS.name, false) ??
    fieldProblem("organization", read.answers.organization, LIMITS.organization, false) ??
    fieldProblem("why", read.answers.why, LIMITS.why, true) ??
    fieldProblem("connect", read.answers.connect, LIMITS.connect, true) ??
    fieldProblem("source", read.source, SOURCE_LIMIT, false);
  if (problem) return { refused: problem };
  const signedUpAt = read.signedUpAt === null ? null : readTime(read.signedUpAt);
  if (read.signedUpAt !== null && !signedUpAt) return { refused: `sign-up date "${read.signedUpAt}" not understood` };
  if (signedUpAt && signedUpAt > now) return { refused: "sign-up date is in the future" };
  const evidenceAt = read.evidence?.at ? readTime(read.evidence.at) : null;
  if (read.evidence?.at && !evidenceAt)
    return { refused: `${read.evidence.what} "${read.evidence.at}" not understood` };
  if (evidenceAt && evidenceAt > now) return { refused: `${read.evidence?.what} is in the future` };
  return {
    row: {
      email,
      name: read.name,
      ...read.answers,
      source: read.source,
      signedUpAt,
      evidence: read.evidence ? { what: read.evidence.what, at: evidenceAt } : null,
      suppress: read.suppress,
    },
  };
}
