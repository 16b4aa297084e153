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
  const listener = (event: Event) => {
    if (started || !(event.target instanceof Element) || !event.target.closest(selector)) return;
    started = true;
    for (const type of EVENTS) document.removeEventListener(type, listener, true);
    void load().then((hydrate) => hydrate());
  };
  for (const type of EVENTS) document.addEventListener(type, listener, { capture: true, passive: true });
};

export default intent;
