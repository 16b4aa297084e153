/**
 * What a person's status page says, in words, as the HTML put into the built page (src/pages/waitlist/status.astro,
 * whose <section id="status-body"> it fills). No script or style of its own (the page's CSP allows neither), only
 * the site's classes; everything that varies is escaped. Never names a referred person.
 *
 * Leaving asks once: the page's Leave is a link to the same page with `leave` added (LEAVE_PARAM), which says what
 * goes and offers a destructive button (the POST that deletes) and a Cancel back; it sits apart, at the end, below
 * a rule, away from the updates choice.
 */
import { longDate } from "../../lib/date";
import { LEAVE_PARAM, STATUS_PATHS, shareLink } from "../../lib/waitlist/referral";
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";
import type { Place } from "../store/line";
import type { StatusView } from "../store/types";
import { updatesSection } from "../updates";
import { linePicture } from "./status-line";
import { shareActions } from "./status-share";

const ORDINAL_SUFFIX: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinalRules = new Intl.PluralRules("en", { type: "ordinal" });
/** 1st, 2nd, 3rd, 4th, 11th, 21st, 1,002nd. */
export const ordinal = (n: number) => `${n.toLocaleString("en-US")}${ORDINAL_SUFFIX[ordinalRules.select(n)]}`;
const count = (n: number) => n.toLocaleString("en-US");

/** "No referrals yet", "1 confirmed referral", "3 confirmed referrals". */
export function referralsInWords(n: number): string {
  if (n === 0) return "No referrals yet";
  return `${count(n)} confirmed referral${n === 1 ? "" : "s"}`;
}

/** The place in words: "6th of 6 waiting". */
export const placeInWords = (place: Place) => `${ordinal(place.place)} of ${count(place.waiting)} waiting`;

/**
 * An invited person's way into the product: with their code (until `expires`), without it because the page was
 * opened by an update's link or the site has no SERVER_SECRET (the code is in their invitation e-mail), or without
 * it because it has expired.
 */
export type AccessLink =
  | { href: string; code: "carried"; expires: string }
  | { href: string; code: "in-email" | "no-server-secret" | "expired" };

/** Why a page shows no code while the site has no SERVER_SECRET, in the person's words. */
export const NO_CODE_WITHOUT_SECRET =
  "This page cannot carry your invitation’s code yet: this site has not finished its security setup, and until it has, a code shown here would not be safe. Use the code in your invitation e-mail; that e-mail’s own button fills it in for you.";

export interface StatusPageInput {
  person: StatusView;
  /** Their place, when they are waiting (confirmed, not yet invited). */
  place: Place | null;
  /** REFERRAL_PLACES. */
  places: number;
  site: string;
  /** The page's own address (the token in it), for the leave form. */
  self: string;
  /** The status link's token, for the updates choice. */
  token: string;
  /** They arrive from their confirmation link. */
  confirmedNow: boolean;
  /** Their share link as a QR code (status-share.ts: shareQr). */
  qr: string;
  /**
   * Where an invited person creates their account (EARLY_ACCESS_URL, checked), with their code until `expires`
   * (null: their invitation has ended, the link has none); null: none to offer.
   */
  access: AccessLink | null;
}

export const H2 = "mt-12 text-xl font-bold tracking-tight text-ink-950";
export const P = "mt-3 text-ink-700";
export const dateOf = (iso: string | null) => (iso ? longDate(new Date(iso), true).text : "");

/** Where a waiting person stands (invited and joined people get status-in.ts's page instead). */
function standing({ person, place, places }: StatusPageInput): string {
  if (!place) return `<p class="mt-6 text-2xl font-semibold text-ink-950">Your address is not confirmed yet</p>`;
  // Explained as the line is decided (store/line.ts): their own referrals move them to a line number, and moved
  // people whose line number is smaller still stand ahead of it. Two sentences, so neither hides the other.
  const from = places > 0 ? Math.max(place.signupPlace - places * person.referrals, 1) : place.signupPlace;
  const own = place.signupPlace - from;
  const others = place.place - from;
  const sentences = [
    ...(own > 0
      ? [
          `Your referrals moved you up ${count(own)} place${own === 1 ? "" : "s"}: by sign-up order alone you would be ${ordinal(place.signupPlace)}.`,
        ]
      : []),
    ...(others > 0 ? [`Referrals put ${count(others)} other ${others === 1 ? "person" : "people"} ahead of you.`] : []),
  ];
  const movedText = sentences.length ? `<p class="${P}">${sentences.join(" ")}</p>` : "";
  return `<p class="mt-6 text-2xl font-semibold text-ink-950" id="status-place">${placeInWords(place)}</p>
${linePicture(place)}
<p class="${P}">You are ${ordinal(place.place)} in line among the ${count(place.waiting)} confirmed ${place.waiting === 1 ? "person" : "people"} waiting for early access. We invite people in waves, in this order.</p>
${movedText}`;
}

function referrals({ person, places, place }: StatusPageInput): string {
  const rule =
    places > 0
      ? `Each one moves you ${count(places)} place${places === 1 ? "" : "s"} forward in line.`
      : "Referrals do not change your place in line: they show how much you have helped the list grow.";
  // The next step, where referrals move people and someone still stands ahead to pass.
  const step = places > 0 && place ? Math.min(places, place.place - 1) : 0;
  const next =
    step > 0
      ? `<p class="mt-3 font-semibold text-ink-900" id="status-next">Your next confirmed referral moves you up to ${count(step)} place${step === 1 ? "" : "s"} forward.</p>`
      : "";
  return `<h2 class="${H2}">Your referrals</h2>
<p class="mt-3 flex items-center gap-2" id="status-referrals"><span class="text-4xl font-bold text-ink-950">${count(person.referrals)}</span> <span class="text-lg font-semibold text-ink-900">confirmed referral${person.referrals === 1 ? "" : "s"}</span></p>
<p class="${P}">A referral counts when someone signs up through your link and confirms an address of their own. ${rule}</p>
${next}`;
}

export function share({ person, site, qr }: StatusPageInput): string {
  return `<h2 class="${H2}">Share your link</h2>
<p class="${P}">Send it to anyone who would like ${escapeHtml(SITE.name)}. It carries only your share code, nothing else about you.</p>
${shareActions(shareLink(site, person.code), qr)}`;
}

/** Destructive: the one red button on the site's pages (the console's Remove has its own). */
const DANGER_BUTTON = "rounded-full bg-danger-700 px-6 py-3 font-semibold text-white";

/** What leaving costs, in the page's words: a waiting person's place, an invited one's invitation. */
const standingWord = (person: StatusView) =>
  person.status === "invited" ? "your invitation" : person.status === "joined" ? "your record" : "your place";

export function leave({ self, person }: StatusPageInput): string {
  const what = standingWord(person);
  return `<div class="mt-12 border-t border-ink-200">
<div class="mt-10">
<h2 class="text-xl font-bold tracking-tight text-ink-950" id="leave">Leave the list</h2>
<p class="${P}">Leaving deletes your address and ${what}; the next page asks before anything goes. This page’s address is yours alone: whoever has it sees ${what} and can take you off the list, so keep it to yourself.</p>
<p class="mt-4"><a href="${escapeHtml(`${self}&${LEAVE_PARAM}`)}" class="font-semibold text-ink-950 underline">Leave the waitlist…</a></p>
</div>
</div>`;
}

/** What leaving deletes, for this person, in words. */
function whatGoes({ person, place }: StatusPageInput): string[] {
  const standing = place
    ? `your place in line (${placeInWords(place)}): signing up again starts at the end`
    : person.status === "invited"
      ? "your invitation: its code stops working"
      : "your record on the waitlist";
  return [
    "your address and everything you sent us when you signed up",
    standing,
    `your share link, and your referrals (${referralsInWords(person.referrals).toLowerCase()})`,
    "your choice about updates: we will not write to you again",
  ];
}

/** The page that asks once before leaving: what goes, the destructive button, and Cancel back to the page. */
export function leaveBody(input: StatusPageInput): string {
  const items = whatGoes(input)
    .map((item) => `<li>${escapeHtml(item)}</li>`)
    .join("");
  return `<div class="mx-auto max-w-2xl px-5 py-16 sm:px-8 sm:py-20">
<h1 class="text-4xl font-bold tracking-tight text-ink-950">Leave the ${escapeHtml(SITE.name)} waitlist?</h1>
<p class="mt-6 text-lg text-ink-700">Leaving deletes, for good:</p>
<ul class="mt-3 grid gap-2 text-ink-700" id="leave-list">${items}</ul>
<p class="mt-4 text-ink-700">It cannot be undone. You are welcome to sign up again at any time.</p>
<form method="post" action="${escapeHtml(input.self)}" class="mt-8 flex flex-wrap items-center gap-4">
<input type="hidden" name="action" value="leave">
<button type="submit" class="${DANGER_BUTTON}">Leave the waitlist</button>
<a href="${escapeHtml(input.self)}" class="rounded-full px-6 py-3 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50">Cancel</a>
</form>
</div>`;
}

/** The closing lines of every status page: the link again by e-mail, and leaving. */
export const lostAndLeave = (input: StatusPageInput) =>
  `<p class="mt-12 text-sm text-ink-700">Lost this page? <a class="font-semibold text-brand-700 underline" href="${STATUS_PATHS.request}">Get its link by e-mail again</a>.</p>
${leave(input)}`;

/** The page's body for `input`, a person waiting (status-in.ts: once they are invited). */
export function statusBody(input: StatusPageInput): string {
  const notice = input.confirmedNow
    ? `<p class="mt-6 rounded-lg bg-brand-100 px-4 py-3 font-semibold text-ink-950" role="status">Thank you: your address is confirmed. We have e-mailed you the link to this page too.</p>`
    : "";
  return `<div class="mx-auto max-w-2xl px-5 py-16 sm:px-8 sm:py-20">
<h1 class="text-4xl font-bold tracking-tight text-ink-950">Your place on the ${escapeHtml(SITE.name)} waitlist</h1>${notice}
${standing(input)}
${referrals(input)}
${share(input)}
${input.person.status === "confirmed" ? updatesSection(input.person.updates, input.token) : ""}
${lostAndLeave(input)}
</div>`;
}
