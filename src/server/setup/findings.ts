/**
 * What a setup check finds, as `doctor` prints it and the console's Overview shows it: the same words in both,
 * never a secret's value. A finding is a setting (or a few that go together); a check is something tried live.
 */

/** Required: without it the list is unsafe or nobody can run it. Recommended: a real deploy wants it. */
export type Level = "required" | "recommended" | "optional";

export interface Finding {
  /** The variable, or the few that go together ("SMTP_URL, MAIL_FROM"). */
  name: string;
  level: Level;
  ok: boolean;
  /** One line: what the setting is for. */
  does: string;
  /** One line: its state when ok, what to do when not. Never a secret's value. */
  say: string;
  /** The section of docs/deploying.md that says more (its anchor). */
  docs: string;
}

export interface Check {
  name: string;
  /** null: not tried (what it checks is off). */
  ok: boolean | null;
  /** One line: what answered, or what failed and what to do. */
  say: string;
  /** A failure that makes `doctor` exit 1 (the database, a key, a service that is set and does not answer). */
  blocking: boolean;
}

/** docs/deploying.md on the project's repository, for a link from a deployed console (package.json's repository). */
export const DEPLOYING_DOCS = "https://github.com/noosphere-app/noosphere-site/blob/main/docs/deploying.md";

export const docsLink = (anchor: string) => `${DEPLOYING_DOCS}#${anchor}`;

/** Whether the setup holds: nothing required missing, nothing unreadable, no blocking check failed. */
export const setupHolds = (findings: readonly Finding[], checks: readonly Check[] = []): boolean =>
  findings.every((f) => f.ok || f.level !== "required") && checks.every((c) => c.ok !== false || !c.blocking);
