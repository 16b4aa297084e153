import type { Signup } from "./rules";

/** A row of the `waitlist` table, as docs/brief.md defines it. */
export interface WaitlistEntry {
  name: string | null;
  email: string;
  message: string | null;
}

const PARTS = [
  ["organization", "Organization: "],
  ["why", "Why: "],
  ["connect", "Connect: "],
] as const;

/**
 * Combines the optional parts into one message: each present part on its own paragraph, separated by a
 * blank line, prefixed as docs/brief.md says. Absent or blank parts are omitted; all absent gives null.
 */
export function buildMessage(parts: Pick<Signup, "organization" | "why" | "connect">): string | null {
  const paragraphs = PARTS.flatMap(([key, prefix]) => {
    const value = parts[key]?.trim();
    return value ? [`${prefix}${value}`] : [];
  });
  return paragraphs.length > 0 ? paragraphs.join("\n\n") : null;
}

/** The row to store for a validated sign-up: blank name is null, e-mail trimmed. */
export function toEntry(signup: Signup): WaitlistEntry {
  return {
    name: signup.name?.trim() || null,
    email: signup.email.trim(),
    message: buildMessage(signup),
  };
}
