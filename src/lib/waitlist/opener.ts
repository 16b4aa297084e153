/**
 * The island's side of the click bridge (see capture.ts): connect once hydrated, and take over the early dialog
 * (with what was typed and where the caret was) or the parked click. Only types and names come from capture.ts,
 * so the page's capture script does not share a chunk with the island.
 */
import { type CarriedForm, EARLY_DIALOG_ID, type WaitlistBridge } from "./capture";

/** The early dialog's fields as the island's values, and the focused field with its selection. */
function carry(dialog: HTMLDialogElement): CarriedForm | null {
  const form = dialog.querySelector("form");
  if (!form) return null;
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

/** Connects the island to the bridge; returns the disconnect function. */
export function connectOpener(open: (opener: HTMLElement, carried?: CarriedForm) => void): () => void {
  window.__waitlist ??= { pending: null, open: null } satisfies WaitlistBridge;
  const current = window.__waitlist;
  current.open = open;
  clearTimeout(current.fallback);
  current.fallback = undefined;
  const disconnect = () => {
    current.open = null;
  };
  const early = document.getElementById(EARLY_DIALOG_ID) as HTMLDialogElement | null;
  if (early?.open) {
    // Its form already went (the page is about to show the answer): nothing to take over, nothing to send again.
    if (current.sent) return disconnect;
    const carried = carry(early);
    const opener = current.pending;
    current.pending = null;
    early.dataset["handedOver"] = "1";
    early.close();
    early.replaceChildren();
    if (opener) open(opener, carried ?? undefined);
  } else {
    const pending = current.pending;
    current.pending = null;
    if (pending) open(pending);
  }
  return disconnect;
}
