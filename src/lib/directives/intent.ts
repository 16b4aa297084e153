/**
 * `client:intent="<selector>"`: hydrate an island when the visitor shows intent toward one of its controls
 * (the elements matching the selector): the pointer entering one, focus, a touch or pointer down, or a
 * click. Nothing loads for visitors who never reach for it. A click made before the island is ready is not
 * lost: the page's capture script (src/lib/waitlist/capture.ts) parks it and the island replays it.
 */
import type { ClientDirective } from "astro";

const EVENTS = ["pointerover", "focusin", "touchstart", "pointerdown", "click"] as const;

const intent: ClientDirective = (load, options) => {
  const selector = String(options.value);
  let started = false;
  const start = () => void load().then((hydrate) => hydrate());
  const listener = (event: Event) => {
    if (started || !(event.target instanceof Element) || !event.target.closest(selector)) return;
    started = true;
    for (const type of EVENTS) document.removeEventListener(type, listener, true);
    // A hover or focus comes before the click: load now, so the island is there when it lands. A tap or click is
    // the click itself, and the early dialog answers it (capture.ts): load once that frame is out, so the island's
    // arrival does not stand between the dialog and the visitor's first keystrokes.
    const now = event.type === "pointerover" || event.type === "focusin";
    if (now || typeof requestIdleCallback !== "function") start();
    else requestIdleCallback(start, { timeout: 1000 });
  };
  for (const type of EVENTS) document.addEventListener(type, listener, { capture: true, passive: true });
};

export default intent;
