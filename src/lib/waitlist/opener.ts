/**
 * The island's side of the click bridge (see capture.ts): connect once hydrated, take the parked click.
 * Only types come from capture.ts, so the page's capture script does not share a chunk with the island.
 */
import type { WaitlistBridge } from "./capture";

/** Connects the island to the bridge; returns the disconnect function. */
export function connectOpener(open: (opener: HTMLElement) => void): () => void {
  window.__waitlist ??= { pending: null, open: null } satisfies WaitlistBridge;
  const current = window.__waitlist;
  current.open = open;
  clearTimeout(current.fallback);
  current.fallback = undefined;
  const pending = current.pending;
  current.pending = null;
  if (pending) open(pending);
  return () => {
    current.open = null;
  };
}
