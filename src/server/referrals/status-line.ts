/**
 * The line as a picture on the status page: a bar of the people waiting, split into those ahead, the person, and
 * those behind, drawn as inline SVG by the server (no script, no image request; the page's CSP allows both). The
 * bar is decoration beside the same three figures in words, which are what a screen reader reads (the SVG is
 * aria-hidden): a picture's colours alone never carry the place.
 */
import type { Place } from "../store/line";

const count = (n: number) => n.toLocaleString("en-US");
/** The bar's width in the SVG's own units; "you" keeps at least this share of it, so a long line still shows them. */
const WIDTH = 300;
const YOU_MIN = 6;

/** People ahead and behind of someone at `place`. */
export function aroundOf(place: Place): { ahead: number; behind: number } {
  return { ahead: place.place - 1, behind: Math.max(place.waiting - place.place, 0) };
}

/** The picture and its words, for someone waiting at `place`. */
export function linePicture(place: Place): string {
  const { ahead, behind } = aroundOf(place);
  const total = Math.max(place.waiting, 1);
  const you = Math.max(WIDTH / total, YOU_MIN);
  const aheadWidth = ((WIDTH - you) * ahead) / Math.max(ahead + behind, 1);
  const behindWidth = WIDTH - you - aheadWidth;
  const rect = (x: number, width: number, fill: string) =>
    width > 0
      ? `<rect x="${x.toFixed(2)}" y="4" width="${width.toFixed(2)}" height="16" rx="3" class="${fill}" fill="currentColor"></rect>`
      : "";
  return `<figure class="mt-6" id="status-line">
<svg viewBox="0 0 ${WIDTH} 24" height="24" class="block w-full" preserveAspectRatio="none" aria-hidden="true" focusable="false">${rect(0, aheadWidth, "text-ink-300")}${rect(aheadWidth, you, "text-brand-600")}${rect(aheadWidth + you, behindWidth, "text-ink-100")}</svg>
<figcaption class="mt-2 flex justify-between gap-3 text-sm text-ink-700"><span id="status-ahead"><span class="font-semibold text-ink-900">${count(ahead)}</span> ahead of you</span><span class="font-semibold text-brand-700">You</span><span id="status-behind"><span class="font-semibold text-ink-900">${count(behind)}</span> behind you</span></figcaption>
</figure>`;
}
