/**
 * What a person agreed to, in words the team reads: the Terms of Service by their date, the updates choice by how
 * it was made. The records keep short hashes of the words shown (TERMS_VERSION, UPDATES_WORDS_VERSION, the
 * unsubscribe page's), which prove what was shown but mean nothing to a reader, so the console never shows them:
 * each version is named here, and tests/integration/console/console-consent-words.test.ts fails when the current
 * terms or words have no name, so a new version is dated the day it ships.
 */
import { createHash } from "node:crypto";
import { longDate } from "../../../lib/date";
import { ACTION_PAGES } from "../../../lib/waitlist/consent";
import { TERMS_VERSION } from "../../terms-version";
import { ONE_CLICK, UPDATES_WORDS, UPDATES_WORDS_VERSION } from "../../updates";

/** Each version of the Terms of Service ever served, by the day it was first served (UTC). */
export const TERMS_DATES: Readonly<Record<string, string>> = {
  "2d81b8fd62c70c2e": "2026-11-22",
  // The paragraph on counting visits without cookies (issue 51) was added.
  [TERMS_VERSION]: "2026-11-29",
};

/** The terms a sign-up agreed to, as the team names them: by their date, never their hash. */
export function termsAgreed(version: string | null): string {
  if (version === null) return "Not recorded (they signed up before the terms were kept with each sign-up)";
  const date = TERMS_DATES[version];
  if (!date) return "A version of the Terms of Service that this console has no date for";
  return `The Terms of Service of ${longDate(new Date(`${date}T00:00:00Z`), true).text}`;
}

/**
 * What the unsubscribe page's button records: the hash of its words, made as updates/handler.ts makes it (a test
 * holds the two equal).
 */
export const UNSUBSCRIBE_PAGE_VERSION = createHash("sha256")
  .update(ACTION_PAGES.unsubscribe.body)
  .digest("hex")
  .slice(0, 16);

/** A provider's complaint withdraws consent with these words (suppression/record.ts), naming the provider. */
const COMPLAINT = /^withdrawn: a spam complaint \((.+)\)$/;

/** The updates choice as it stands: the answer (null: never asked), how it was given, the words they said yes to. */
export interface UpdatesChoice {
  answer: "Yes" | "No" | null;
  /** How it was given, or "" when the record does not say. */
  how: string;
  /** The offer they accepted, word for word, when known. */
  words: string | null;
}

export function updatesChoice(consent: boolean | null, recorded: string | null): UpdatesChoice {
  if (consent === null) {
    return { answer: null, how: "Not asked yet: they are asked on their status page once they confirm", words: null };
  }
  if (consent) {
    const known = recorded === UPDATES_WORDS_VERSION;
    return {
      answer: "Yes",
      how: known ? "on their status page, to these words:" : "",
      words: known ? UPDATES_WORDS : null,
    };
  }
  return { answer: "No", how: howStopped(recorded), words: null };
}

function howStopped(recorded: string | null): string {
  if (recorded === UPDATES_WORDS_VERSION) return "on their status page";
  if (recorded === UNSUBSCRIBE_PAGE_VERSION) return "from an update's unsubscribe page";
  if (recorded === ONE_CLICK) return "with their mail app's one-click unsubscribe";
  const complaint = recorded === null ? null : COMPLAINT.exec(recorded);
  if (complaint) return `they marked an e-mail as spam (reported by ${complaint[1]})`;
  return "";
}

/** The choice as a step of their timeline: "Said yes to updates", "Stopped updates from an update's …". */
export function updatesStep(consent: boolean, recorded: string | null): string {
  if (consent) return "Said yes to updates";
  const how = howStopped(recorded);
  if (how.startsWith("they ")) return `Updates stopped: ${how}`;
  return how ? `Said no to updates, ${how}` : "Said no to updates";
}
