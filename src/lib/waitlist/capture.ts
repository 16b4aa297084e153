/**
 * The page's tiny click-capture script (WaitlistCapture.astro, runs before any island) and its contract with
 * the dialog island (src/lib/waitlist/opener.ts, which imports nothing from here but types, so this file
 * stays one small script of its own):
 * and the dialog island (hydrated on intent, `client:intent`): a click on a `[data-waitlist-open]` control
 * before hydration is remembered in `pending`; once hydrated, the island sets `open` and handles the pending
 * click. If the island is not ready within FALLBACK_MS of that click, the visitor goes to the control's own
 * link (/join, the form that works without JavaScript): no dead button.
 */
export interface WaitlistBridge {
  pending: HTMLElement | null;
  open: ((opener: HTMLElement) => void) | null;
  fallback?: ReturnType<typeof setTimeout> | undefined;
}

/** How long a parked click waits for the island before the link is followed instead. */
export const FALLBACK_MS = 3000;

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

/** Installed once per page, before hydration: routes opener clicks to the dialog, or parks the latest one. */
export function captureOpenerClicks(): void {
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>(OPENER_SELECTOR) : null;
    if (!target || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const current = bridge();
    if (current.open) return current.open(target);
    current.pending = target;
    current.fallback ??= setTimeout(() => {
      const parked = current.pending;
      if (current.open || !parked) return;
      current.pending = null;
      location.assign((parked as HTMLAnchorElement).href);
    }, FALLBACK_MS);
  });
}
