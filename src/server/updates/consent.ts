/**
 * Asking for updates, and what the answer records. A person chooses after confirming, on their status page (the page
 * the confirmation leads to), and can change their mind there and from every update. The choice is kept with its
 * time and a version of the words they were shown (UPDATES_WORDS_VERSION), as the terms consent is.
 */
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";

/** The words beside the choice, on the status page. */
export const UPDATES_WORDS = `Occasional e-mails from the ${SITE.name} team while you wait: what we are building, and when the next people are let in. A few a year, no tracking, and every one has a link to stop them.`;
/**
 * What the record keeps of the words: a short hash of them, as terms_version is of the terms, written here (not
 * worked out) so that new words are a deliberate new version: tests/unit/updates-words.test.ts fails when the
 * words (or the product's name in them) change and this does not. The words of every version are in git.
 */
export const UPDATES_WORDS_VERSION = "2e1a39c2c8aee653";
/** What the record keeps of a mail provider's one-click unsubscribe (RFC 8058), which shows no words. */
export const ONE_CLICK = "one-click";

export const UPDATES_PATHS = { choose: "/waitlist/updates", unsubscribe: "/waitlist/unsubscribe" } as const;

/** The status page's section: the words, the choice as it stands, and the button that changes it. */
export function updatesSection(choice: boolean | null, statusToken: string): string {
  const standing =
    choice === true
      ? "You get these updates."
      : choice === false
        ? "You have stopped these updates."
        : "You have not asked for these updates.";
  const [value, label] = choice === true ? ["no", "Stop these updates"] : ["yes", "Send me updates"];
  return `<h2 class="mt-12 text-xl font-bold tracking-tight text-ink-950" id="updates">Updates</h2>
<p class="mt-3 text-ink-700">${escapeHtml(UPDATES_WORDS)}</p>
<p class="mt-3 font-semibold text-ink-900" id="updates-choice">${standing}</p>
<form method="post" action="${UPDATES_PATHS.choose}?token=${escapeHtml(statusToken)}" class="mt-4">
<input type="hidden" name="updates" value="${value}">
<button type="submit" class="rounded-full px-6 py-3 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50">${label}</button>
</form>`;
}
