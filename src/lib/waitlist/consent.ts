/**
 * Confirmation and removal by e-mail, as data shared by the function (src/server/links/consent-store.ts, src/server/links/handler.ts)
 * and the static pages the links open (src/pages/waitlist/): paths, lifetimes and words.
 */
import { SITE, WAITLIST_LABEL } from "../../site";

/** A confirmation link works for 7 days; a removal link for 30 (one can always ask for another). */
export const CONFIRM_TTL_DAYS = 7;
export const REMOVE_TTL_DAYS = 30;
/**
 * The shortest age at which a pending sign-up may be purged: a confirmation link works for CONFIRM_TTL_DAYS,
 * and nobody whose link still works is deleted.
 */
export const PURGE_MIN_DAYS = CONFIRM_TTL_DAYS;
/** The least time between two e-mails of one kind to one address. */
export const RESEND_MINUTES = 10;
/**
 * The most confirmation and removal e-mails one mailbox is sent per day (UTC), whatever the addresses that
 * reach it (`victim+1@…`, `Victim+2@…`) and whatever proofs of work were solved for them.
 */
export const MAILBOX_EMAILS_PER_DAY = 3;

/** The pages an e-mail links to (GET: a page with one button; its POST acts) and the removal request form. */
export const LINK_PATHS = {
  confirm: "/waitlist/confirm",
  remove: "/waitlist/leave",
  request: "/waitlist/remove",
} as const;

interface Action {
  label: string;
  href: string;
}

/** A page that says what a link did (the function's 303 after a button's POST lands on one of these). */
export interface Notice {
  title: string;
  body: string;
  actions: readonly Action[];
}

const home: Action = { label: "Back to Home", href: "/" };
const askRemoval: Action = { label: "Ask for a removal link", href: LINK_PATHS.request };
const join: Action = { label: WAITLIST_LABEL, href: "/join" };
const askStatus: Action = { label: "Get my status link", href: "/waitlist/link" };

/** Keyed by path under /waitlist/; the keys are what the function redirects to (OUTCOME_PAGES). */
export const NOTICES = {
  confirmed: {
    title: "Your place is confirmed",
    body: `Thank you: your address is confirmed on the ${SITE.name} waitlist. We'll let you know as soon as your early-access account is ready.`,
    actions: [home],
  },
  "already-confirmed": {
    title: "Already confirmed",
    body: "This address was confirmed before, so there is nothing more to do. Your place in line is on your status page: we can e-mail you its link.",
    actions: [askStatus, home],
  },
  // A confirmation link kept and opened again after the person moved on: where they stand, and the way to their page.
  "already-invited": {
    title: "You are invited",
    body: `This address was confirmed, and its invitation to ${SITE.name} has gone out: the e-mail “${SITE.name}: your early access is ready” holds your code. Your status page has a button to create your account: we can e-mail you its link.`,
    actions: [askStatus, home],
  },
  "already-joined": {
    title: "You have joined",
    body: `This address was confirmed and has created its ${SITE.name} account, so there is nothing more to do here. Your status page is still yours: we can e-mail you its link.`,
    actions: [askStatus, home],
  },
  removed: {
    title: "You've left the waitlist",
    body: "Your address and everything you sent us have been deleted. You are welcome back at any time.",
    actions: [home, join],
  },
  "link-expired": {
    title: "This link has expired",
    body: `Confirmation links work for ${CONFIRM_TTL_DAYS} days and removal links for ${REMOVE_TTL_DAYS}. To confirm, sign up again with the same address and we'll send a new link; to leave, ask for a new removal link.`,
    actions: [join, askRemoval],
  },
  "link-invalid": {
    title: "This link doesn't work",
    body: "It may have been used already, or cut short when it was copied. To join, sign up again; to leave, ask for a new removal link.",
    actions: [join, askRemoval],
  },
  unsubscribed: {
    title: "You won't get these updates",
    body: "We will not send you any more updates. You stay on the waitlist, and we will still write when your early access is ready.",
    actions: [home, { label: "Leave the waitlist altogether", href: "/waitlist/remove" }],
  },
  resubscribed: {
    title: "You'll get updates again",
    body: `Thank you: we will send you the ${SITE.name} team's occasional updates again. Every one has a link to stop them.`,
    actions: [home],
  },
  "link/sent": {
    title: "Check your inbox",
    body: "If that address is on the waitlist, we've sent it the link to its status page (or, if it is not confirmed yet, a new confirmation link).",
    actions: [home],
  },
  "remove/sent": {
    title: "Check your inbox",
    body: `If that address is on the waitlist, we've sent it a link to remove it. The link works for ${REMOVE_TTL_DAYS} days.`,
    actions: [home],
  },
} as const satisfies Record<string, Notice>;

/** The pages with one button (or, for the request, one field and a button). */
export const ACTION_PAGES = {
  confirm: {
    title: "Confirm your place",
    body: `One click confirms your address on the ${SITE.name} waitlist.`,
    button: "Confirm my place",
  },
  leave: {
    title: "Leave the waitlist",
    body: `This deletes your address, your place in line, your share link and your referrals, and everything you sent us, from the ${SITE.name} waitlist. It cannot be undone.`,
    button: "Leave the waitlist",
  },
  status: {
    title: "Your place in line",
    body: "Enter the address you signed up with. If it is on the waitlist, we'll e-mail it the link to your status page: your place in line, your referrals and your share link.",
    label: "Email",
    button: "Send me my link",
  },
  unsubscribe: {
    title: "Stop these updates",
    body: "One click and we stop sending you updates. You stay on the waitlist, and we will still write when your early access is ready.",
    button: "Stop these updates",
  },
  request: {
    title: "Leave the waitlist",
    body: "Enter the address you signed up with. If it is on the waitlist, we'll e-mail it a link to remove it.",
    label: "Email",
    button: "Send me a removal link",
  },
} as const;
