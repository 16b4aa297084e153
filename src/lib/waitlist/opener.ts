/**
 * The island's side of the click bridge (see capture.ts): connect once hydrated, and take over the early dialog
 * (through the bridge's handOver: what was typed and where the caret was) or the parked click. Only types come
 * from capture.ts, so the page's capture script stays inline in each page, sharing no chunk with the island.
 */
import type { CarriedForm, WaitlistBridge } from "./capture";

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
  const handed = current.handOver?.() ?? null;
  // Its form already went (the page is about to show the answer): nothing to take over, nothing to send again.
  if (handed === "sent") return disconnect;
  if (handed) {
    if (handed.opener) open(handed.opener, handed.carried);
    return disconnect;
  }
  const pending = current.pending;
  current.pending = null;
  if (pending) open(pending);
  return disconnect;
}
