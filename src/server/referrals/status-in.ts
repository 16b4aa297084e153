/**
 * The status page of someone let in: invited (their way into the product first, then when their code ends) or joined.
 * The line is behind them, so the page says nothing of places or referrals; it keeps sharing (the list still grows
 * by their link), the link again by e-mail, and leaving. status-page.ts holds the waiting person's page and the parts
 * both share.
 */
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";
import type { StatusView } from "../store/types";
import {
  type AccessLink,
  dateOf,
  lostAndLeave,
  NO_CODE_WITHOUT_SECRET,
  P,
  type StatusPageInput,
  share,
} from "./status-page";

/** Invited or joined: their page is this file's, not the line's. */
export const isIn = (person: StatusView) => person.status === "invited" || person.status === "joined";

const H1 = "text-4xl font-bold tracking-tight text-ink-950";

/** When their code stops working, said once, in words; an ended one says what to do. */
function codeEnd(person: StatusView): string {
  const end = person.inviteExpiresAt;
  if (!end) return "";
  if (new Date(end).getTime() <= Date.now()) {
    return `<p class="${P}" id="invite-ends">Your invitation’s code ended on ${dateOf(end)}. Write to us and we will send you a new one.</p>`;
  }
  return `<p class="${P}" id="invite-ends">Your invitation’s code works until <strong class="text-ink-950">${dateOf(end)}</strong>.</p>`;
}

/** The product's button, and how it carries their code (or why it does not). */
function createAccount(access: AccessLink | null): string {
  if (!access || access.code === "expired") return "";
  const note =
    access.code === "carried"
      ? `It carries your invitation’s code, which works once, until ${dateOf(access.expires)}.`
      : access.code === "in-email"
        ? "It asks for the code in your invitation e-mail; that e-mail’s own button fills it in for you."
        : NO_CODE_WITHOUT_SECRET;
  return `<p class="mt-8"><a id="create-account" href="${escapeHtml(access.href)}" class="inline-flex rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700">Create my account</a></p>
<p class="mt-3 text-sm text-ink-700">${note}</p>`;
}

function invited({ person, access }: StatusPageInput): string {
  const inbox = `look for “${escapeHtml(SITE.name)}: your early access is ready” in your inbox`;
  const button = createAccount(access);
  return `<h1 class="${H1}">You’re in: welcome to ${escapeHtml(SITE.name)}</h1>
${button}
${codeEnd(person)}
<p class="${P}">Your invitation went out on ${dateOf(person.invitedAt)}: ${inbox}. Its link creates your account${button ? ", and so does the button above" : ""}.</p>`;
}

function joined({ person }: StatusPageInput): string {
  return `<h1 class="${H1}">You have joined ${escapeHtml(SITE.name)}</h1>
<p class="${P}">You created your account on ${dateOf(person.joinedAt)}. Welcome, and thank you for waiting.</p>`;
}

/** The page's body for someone invited or joined. */
export function inBody(input: StatusPageInput): string {
  return `<div class="mx-auto max-w-2xl px-5 py-16 sm:px-8 sm:py-20">
${input.person.status === "joined" ? joined(input) : invited(input)}
${share(input)}
${lostAndLeave(input)}
</div>`;
}
