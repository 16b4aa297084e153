/**
 * The page's tiny click-capture script (WaitlistCapture.astro, runs before any island) and its contract with
 * the dialog island (src/lib/waitlist/opener.ts, which imports nothing from here but types and names, so this
 * file stays one small script of its own). A tap on a `[data-waitlist-open]` control before the island has
 * hydrated opens the early dialog at once: the form's HTML from its <template> (WaitlistEarlyDialog.astro) in a
 * native <dialog>, usable as it is (it posts like /join). When the island connects it takes that dialog over with
 * what was typed, unless its form was already sent. Without the early dialog (an old browser), the click is parked
 * for the island, and after FALLBACK_MS the control's own link (/join) is followed: no dead button. A waitlist form
 * sent from the page (the early dialog's, /join's) carries what only the page knows of the visit (carryReferrer).
 * A visit by a share link reveals the page's "a friend invited you" notes (revealFriendNotes).
 */
import { FRIEND_NOTE_ATTRIBUTE, referralCodeOf } from "./referral";

export interface WaitlistBridge {
  /** The control that opened the early dialog, or a click parked for the island. */
  pending: HTMLElement | null;
  open: ((opener: HTMLElement, carried?: CarriedForm) => void) | null;
  fallback?: ReturnType<typeof setTimeout> | undefined;
  /** The early dialog's form was sent: the island must not take it over (the page is about to move on). */
  sent?: boolean;
  /**
   * For the island, once it is ready: closes the open early dialog and hands over its opener and what was typed;
   * "sent" when its form already went; null when it is not open. Kept here so the island imports only types.
   */
  handOver?: () => { opener: HTMLElement | null; carried: CarriedForm } | "sent" | null;
}

/** What the early dialog hands to the island: the fields' values, and where the caret was. */
export interface CarriedForm {
  values: Record<string, string | boolean>;
  focus: { name: string; start: number | null; end: number | null } | null;
}

/** How long a parked click waits for the island before the link is followed instead. */
export const FALLBACK_MS = 3000;
export const EARLY_TEMPLATE_ID = "waitlist-early-template";
export const EARLY_DIALOG_ID = "waitlist-early";

declare global {
  interface Window {
    __waitlist?: WaitlistBridge;
  }
}

export const OPENER_SELECTOR = "[data-waitlist-open]";

function bridge(): WaitlistBridge {
  window.__waitlist ??= { pending: null, open: null };
  return window.__waitlist;
}

const earlyDialog = () => document.getElementById(EARLY_DIALOG_ID) as HTMLDialogElement | null;

/** Fills the early dialog from its template and opens it, focused as the island would; false when it cannot. */
function openEarly(opener: HTMLElement): boolean {
  const dialog = earlyDialog();
  const template = document.getElementById(EARLY_TEMPLATE_ID) as HTMLTemplateElement | null;
  if (!dialog || !template || typeof dialog.showModal !== "function") return false;
  if (!dialog.open) {
    dialog.replaceChildren(template.content.cloneNode(true));
    dialog.showModal();
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }
  bridge().pending = opener;
  return true;
}

/** The early dialog's fields as the island's values, and the focused field with its selection. */
function carry(form: HTMLFormElement): CarriedForm {
  const values: CarriedForm["values"] = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) || !element.name) continue;
    values[element.name] =
      element instanceof HTMLInputElement && element.type === "checkbox" ? element.checked : element.value;
  }
  const active = document.activeElement;
  const focus =
    (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) && form.contains(active)
      ? { name: active.name, start: active.selectionStart, end: active.selectionEnd }
      : null;
  return { values, focus };
}

function handOver(): ReturnType<NonNullable<WaitlistBridge["handOver"]>> {
  const dialog = earlyDialog();
  const form = dialog?.querySelector("form");
  if (!dialog?.open || !form) return null;
  const current = bridge();
  if (current.sent) return "sent";
  const carried = carry(form);
  const opener = current.pending;
  current.pending = null;
  dialog.dataset["handedOver"] = "1";
  dialog.close();
  dialog.replaceChildren();
  return { opener, carried };
}

/** The early dialog's own behaviour: the close button and a tap outside the panel close it; sending it is final. */
function wireEarlyDialog(): void {
  const dialog = earlyDialog();
  if (!dialog) return;
  dialog.addEventListener("click", (event) => {
    const target = event.target as Element;
    if (target === dialog || target.hasAttribute("data-early-backdrop") || target.closest("[data-early-close]")) {
      dialog.close();
    }
  });
  dialog.addEventListener("submit", (event) => {
    // One sign-up per form: a second press while the first is on its way sends nothing.
    if (bridge().sent) event.preventDefault();
    bridge().sent = true;
  });
  dialog.addEventListener("close", () => {
    // Handed over to the island: it has the values and the focus now.
    if (dialog.dataset["handedOver"]) {
      delete dialog.dataset["handedOver"];
      return;
    }
    dialog.replaceChildren();
    const opener = bridge().pending;
    bridge().pending = null;
    opener?.focus();
  });
}

/**
 * The hidden field of the forms sent from the page (the early dialog's, /join's) that carries the one thing only
 * the page knows of the visit: the referring page's origin (scheme and host; its path and query stay in the
 * browser). The function takes the page itself from the post's Referer, as without JavaScript, and applies the
 * island's rule to both (attribution.ts). Named here, not in attribution.ts: a module the island also imports
 * would make this script a file of its own, loaded after the page instead of inline in it.
 */
export const REFERRER_FIELD = "referrer";

/**
 * The id of /join's own such field. Without JavaScript only the request for /join tells where the visit came from,
 * so the function that answers it (src/server/signup/join-page.ts) fills this field from that request's Referer; with
 * JavaScript, carryReferrer sets the same value again as the form goes.
 */
export const JOIN_REFERRER_ID = "join-referrer";

/**
 * Fills that field as the form goes: a sign-up's attribution does not depend on whether the island had arrived.
 * An app's referrer (`android-app://…`) has no origin ("null"), as the rule has no host for it; nothing is kept.
 */
function carryReferrer(event: SubmitEvent): void {
  // Only the waitlist's forms have the field; the island's form is never sent by the browser.
  const field = (event.target as HTMLFormElement).elements.namedItem(REFERRER_FIELD) as HTMLInputElement | null;
  if (field) field.value = document.referrer && new URL(document.referrer).origin;
}

/** Installed once per page, before hydration: routes opener clicks to the dialog, or opens the early one. */
/** A visitor who came by a share link sees that a friend invited them (the notes are hidden until then). */
function revealFriendNotes(): void {
  if (!referralCodeOf(location.href)) return;
  for (const note of document.querySelectorAll<HTMLElement>(`[${FRIEND_NOTE_ATTRIBUTE}]`)) note.hidden = false;
}

export function captureOpenerClicks(): void {
  revealFriendNotes();
  wireEarlyDialog();
  bridge().handOver = handOver;
  document.addEventListener("submit", carryReferrer);
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>(OPENER_SELECTOR) : null;
    if (!target || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const current = bridge();
    if (current.open) return current.open(target);
    if (openEarly(target)) return;
    current.pending = target;
    current.fallback ??= setTimeout(() => {
      const parked = current.pending;
      if (current.open || !parked) return;
      current.pending = null;
      location.assign((parked as HTMLAnchorElement).href);
    }, FALLBACK_MS);
  });
}
