/**
 * A counted page reports its view once it has loaded and the browser is idle, so the first paint never waits on it:
 * the page's name (its <body data-visit>), its query (the function keeps only the campaign's parameters and whether
 * a share link was used) and the referring page's origin (never its path). No cookie, nothing kept on the device.
 * A prerendered page reports only when it is shown. sendBeacon, else a fetch that outlives the page (keepalive).
 */
import { VISIT_PATH } from "./pages";

function send(page: string): void {
  const body = JSON.stringify({
    page,
    query: location.search,
    referrer: document.referrer && new URL(document.referrer).origin,
  });
  if (navigator.sendBeacon?.(VISIT_PATH, body)) return;
  fetch(VISIT_PATH, { method: "POST", body, keepalive: true }).catch(() => {});
}

export function reportVisit(): void {
  const page = document.body.dataset["visit"];
  if (!page) return;
  const idle = () =>
    "requestIdleCallback" in window
      ? requestIdleCallback(() => send(page), { timeout: 2000 })
      : setTimeout(send, 0, page);
  const shown = () =>
    (document as { prerendering?: boolean }).prerendering
      ? document.addEventListener("prerenderingchange", idle, { once: true })
      : idle();
  if (document.readyState === "complete") shown();
  else addEventListener("load", shown, { once: true });
}
