/**
 * The contract between the page's tiny click-capture script (WaitlistCapture.astro, runs before any island)
 * and the dialog island: a click on a `[data-waitlist-open]` control before hydration is remembered in
 * `pending`; once hydrated, the island sets `open` and handles the pending click.
 */
export interface WaitlistBridge {
  pending: HTMLElement | null;
  open: ((opener: HTMLElement) => void) | null;
}

declare global {
  interface Window {
    __waitlist?: WaitlistBridge;
  }
}

export const OPENER_SELECTOR = "[data-waitlist-open]";

/** Connects the island to the bridge; returns the disconnect function. */
export function connectOpener(open: (opener: HTMLElement) => void): () => void {
  window.__waitlist ??= { pending: null, open: null };
  const bridge = window.__waitlist;
  bridge.open = open;
  const pending = bridge.pending;
  bridge.pending = null;
  if (pending) open(pending);
  return () => {
    bridge.open = null;
  };
}
