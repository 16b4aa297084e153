/**
 * What the page an update's "Stop these updates" link opens says, once the link is known to be the server's: the
 * HTML put into the built page's <section id="unsubscribe-body"> (src/pages/waitlist/unsubscribe.astro), whose
 * own content (one button that stops) is what any other token gets. It knows where the person stands: stopped
 * already, it says so and offers "Send me updates again" (a POST with the same token, recorded as consent, with the
 * words it shows); and leaving uses the link in hand (asking once, as the status page does), not another e-mail.
 * No script, no style attribute; everything that varies is escaped.
 */
import { ACTION_PAGES } from "../../lib/waitlist/consent";
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";
import { UPDATES_WORDS } from "./consent";

/** On the page's address: the page asks whether to leave. */
export const UNSUBSCRIBE_LEAVE_PARAM = "leave";

const WRAP = "mx-auto max-w-xl px-5 py-24 text-center sm:px-8 sm:py-32";
const H1 = "text-4xl font-bold tracking-tight text-ink-950";
const P = "mt-5 text-lg text-ink-700";
const PRIMARY = "rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700";
const SECONDARY = "rounded-full px-6 py-3 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50";
const DANGER = "rounded-full bg-danger-700 px-6 py-3 font-semibold text-white";

const leaveLink = (self: string) =>
  `<p class="mt-12 border-t border-ink-200 text-ink-700"><span class="mt-10 block">Or <a class="font-semibold text-ink-950 underline" href="${escapeHtml(`${self}&${UNSUBSCRIBE_LEAVE_PARAM}`)}">leave the waitlist altogether</a>.</span></p>`;

/** Still receiving (or never asked): the one button that stops, and the way to leave with this link. */
export function stopBody(self: string): string {
  const copy = ACTION_PAGES.unsubscribe;
  return `<div class="${WRAP}">
<h1 class="${H1}">${escapeHtml(copy.title)}</h1>
<p class="${P}">${escapeHtml(copy.body)}</p>
<form method="post" action="${escapeHtml(self)}" class="mt-10"><button type="submit" class="${PRIMARY}">${escapeHtml(copy.button)}</button></form>
${leaveLink(self)}
</div>`;
}

/** Stopped already: says so, and offers them again with the words the consent records. */
export function stoppedBody(self: string): string {
  return `<div class="${WRAP}">
<h1 class="${H1}">You have stopped these updates</h1>
<p class="${P}">We no longer send you updates. You stay on the waitlist, and we will still write when your early access is ready.</p>
<p class="mt-5 text-ink-700">${escapeHtml(UPDATES_WORDS)}</p>
<form method="post" action="${escapeHtml(self)}" class="mt-10"><input type="hidden" name="updates" value="yes"><button type="submit" class="${PRIMARY}">Send me updates again</button></form>
${leaveLink(self)}
</div>`;
}

/** Asks once before leaving by this link: what goes, a destructive button, and Cancel back. */
export function leaveBody(self: string): string {
  return `<div class="${WRAP}">
<h1 class="${H1}">Leave the ${escapeHtml(SITE.name)} waitlist?</h1>
<p class="${P}">This deletes your address, your place in line, your share link and your referrals, and everything you sent us. It cannot be undone.</p>
<form method="post" action="${escapeHtml(self)}" class="mt-10 flex flex-wrap justify-center gap-4"><input type="hidden" name="action" value="leave"><button type="submit" class="${DANGER}">Leave the waitlist</button><a href="${escapeHtml(self)}" class="${SECONDARY}">Cancel</a></form>
</div>`;
}
