import type { Attribution } from "../lib/waitlist/attribution";
import { isChoice, QUESTIONS, type Question, questionById } from "../lib/waitlist/questions";
import { type Answers, type Signup, TEXT_FIELDS } from "../lib/waitlist/rules";
import { TERMS_VERSION } from "./terms-version";

/**
 * `pending` until the address is confirmed by e-mail (only while mail is configured), else `confirmed`; then
 * `invited` once an invite code went out, and `joined` once the product redeemed it.
 */
export type EntryStatus = "pending" | "confirmed" | "invited" | "joined";
export const ENTRY_STATUSES: readonly EntryStatus[] = ["pending", "confirmed", "invited", "joined"];

/** A row of the `waitlist` table, as docs/brief.md defines it, and where the sign-up came from (when known). */
export interface WaitlistEntry {
  name: string | null;
  email: string;
  message: string | null;
  /** The optional answers on their own (also combined in `message`); absent: none. */
  organization?: string | null;
  why?: string | null;
  connect?: string | null;
  /** Free-text answers to the team's questions, by id (sealed with the rest); absent or null: none. */
  answers?: Record<string, string> | null;
  /** Choice and multiple answers, by id (kept in clear, to filter by); absent or null: none. */
  choices?: Answers | null;
  /** The version of the terms agreed to (terms-version.ts); absent: not recorded. */
  termsVersion?: string;
  attribution?: Attribution;
  /** A keyed hash of the mailbox the address reaches (mail/mailbox.ts), for referrals; absent: not recorded. */
  mailboxKey?: string;
  /** A keyed hash of the exact address (mail/mailbox.ts), what the suppression list keys on; absent: not recorded. */
  addressKey?: string;
  /** The share link it came by: who shared it, and whether it can count ('pending' until confirmed). */
  referral?: { referrerId: number; outcome: "pending" | "self" } | undefined;
}

/**
 * Combines the optional parts into one message: each present part on its own paragraph, separated by a
 * blank line, prefixed as docs/brief.md §4 says. Absent or empty parts are omitted; all absent gives null.
 * The parts arrive trimmed (the schema trims, once).
 */
export function buildMessage(parts: Pick<Signup, "organization" | "why" | "connect">): string | null {
  const paragraphs = TEXT_FIELDS.flatMap((field) => {
    const value = "prefix" in field ? parts[field.key as keyof typeof parts] : undefined;
    return value && "prefix" in field ? [`${field.prefix}${value}`] : [];
  });
  return paragraphs.length > 0 ? paragraphs.join("\n\n") : null;
}

/** Answers split as they are kept: choices in clear (filterable), free text to be sealed; none: left out. */
export function splitAnswers(answers: Answers | undefined, questions: readonly Question[] = QUESTIONS) {
  const texts: Record<string, string> = {};
  const choices: Answers = {};
  for (const [id, value] of Object.entries(answers ?? {})) {
    const question = questionById(questions, id);
    if (question && isChoice(question)) choices[id] = value;
    else if (question && typeof value === "string") texts[id] = value;
  }
  return {
    ...(Object.keys(texts).length > 0 ? { answers: texts } : {}),
    ...(Object.keys(choices).length > 0 ? { choices } : {}),
  };
}

/** The row to store for a validated (so trimmed) sign-up, agreeing to today's terms: an empty name is null. */
export function toEntry(
  signup: Signup,
  attribution?: Attribution,
  questions: readonly Question[] = QUESTIONS,
): WaitlistEntry {
  return {
    ...splitAnswers(signup.answers, questions),
    name: signup.name || null,
    email: signup.email,
    message: buildMessage(signup),
    organization: signup.organization || null,
    why: signup.why || null,
    connect: signup.connect || null,
    termsVersion: TERMS_VERSION,
    ...(attribution ? { attribution } : {}),
  };
}
