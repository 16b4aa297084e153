/**
 * What a person's status page says, in words, as the HTML put into the built page (src/pages/waitlist/status.astro,
 * whose <section id="status-body"> it fills). No script or style of its own (the page's CSP allows neither), only
 * the site's classes; everything that varies is escaped. Never names a referred person.
 */
import { longDate } from "../../lib/date";
import { STATUS_PATHS, shareLink } from "../../lib/waitlist/referral";
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";
import type { Place } from "../store/line";
import type { StatusView } from "../store/types";
import { updatesSection } from "../updates";

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
}

const H2 = "mt-12 text-xl font-bold tracking-tight text-ink-950";
const P = "mt-3 text-ink-700";
const dateOf = (iso: string | null) => (iso ? longDate(new Date(iso), true).text : "");

function standing({ person, place, places }: StatusPageInput): string {
  if (person.status === "joined") {
    return `<p class="mt-6 text-2xl font-semibold text-ink-950">You have joined ${escapeHtml(SITE.name)}</p>
<p class="${P}">You created your account on ${dateOf(person.joinedAt)}. Welcome, and thank you for waiting.</p>`;
  }
  if (person.status === "invited") {
    return `<p class="mt-6 text-2xl font-semibold text-ink-950">You are invited</p>
<p class="${P}">Your invitation went out on ${dateOf(person.invitedAt)}: look for “${escapeHtml(SITE.name)}: your early access is ready” in your inbox. Its link creates your account.</p>`;
  }
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
<p class="${P}">You are ${ordinal(place.place)} in line among the ${count(place.waiting)} confirmed ${place.waiting === 1 ? "person" : "people"} waiting for early access. We invite people in waves, in this order.</p>
${movedText}`;
}

function referrals({ person, places }: StatusPageInput): string {
  const rule =
    places > 0
      ? `Each one moves you ${count(places)} place${places === 1 ? "" : "s"} forward in line.`
      : "Referrals do not change your place in line: they show how much you have helped the list grow.";
  return `<h2 class="${H2}">Your referrals</h2>
<p class="mt-3 text-lg font-semibold text-ink-900" id="status-referrals">${referralsInWords(person.referrals)}</p>
<p class="${P}">A referral counts when someone signs up through your link and confirms an address of their own. ${rule}</p>`;
}

function share({ person, site }: StatusPageInput): string {
  const link = escapeHtml(shareLink(site, person.code));
  return `<h2 class="${H2}">Share your link</h2>
<p class="${P}">Send it to anyone who would like ${escapeHtml(SITE.name)}. It carries only your share code, nothing else about you.</p>
<div class="mt-4 flex flex-col gap-3">
<p class="grow"><label for="share-link" class="block text-sm font-semibold text-ink-900">Your share link</label>
<input id="share-link" type="text" readonly value="${link}" class="mt-1.5 block w-full rounded-lg border border-ink-200 bg-white px-3.5 py-2.5 text-base text-ink-900 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600"></p>
<p><button type="button" data-copy="share-link" hidden class="rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700">Copy link</button></p>
</div>
<p class="mt-2 text-sm text-ink-700" data-copy-status role="status"></p>`;
}

function leave({ self }: StatusPageInput): string {
  return `<h2 class="${H2}">Leave the list</h2>
<p class="${P}">This deletes your address and everything you sent us. This page’s address is yours alone: whoever has it sees your place and can take you off the list, so keep it to yourself.</p>
<form method="post" action="${escapeHtml(self)}" class="mt-4">
<input type="hidden" name="action" value="leave">
<button type="submit" class="rounded-full px-6 py-3 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50">Leave the waitlist</button>
</form>`;
}

/** The page's body for `input`. */
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
${leave(input)}
<p class="mt-12 text-sm text-ink-700">Lost this page? <a class="font-semibold text-brand-700 underline" href="${STATUS_PATHS.request}">Get its link by e-mail again</a>.</p>
</div>`;
}
