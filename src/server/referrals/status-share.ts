/**
 * The status page's ways to share a person's link, none of which loads anything from another site: the link with
 * Copy beside it, a mailto: with a ready message, plain links to four networks' own share pages (followed only when
 * the person clicks one, and the page sends no Referer: status-handler.ts), the Web Share API where the browser has
 * it (src/lib/copy-button.ts shows that button), and a QR code drawn here as SVG by `qrcode`, for a phone held up
 * to a screen. The message says only what the link is; the link carries only the share code.
 */
import QRCode from "qrcode";
import { SITE } from "../../site";
import { escapeHtml } from "../http/form-page";

/** The message that goes with the link, wherever it is shared. */
export const shareMessage = () => `I joined the waitlist for ${SITE.name}. Join me:`;

/** The networks' own share pages for `link`, in the order shown. */
export function shareTargets(link: string): Array<{ label: string; href: string }> {
  const text = shareMessage();
  const q = encodeURIComponent;
  return [
    { label: "X", href: `https://x.com/intent/post?text=${q(text)}&url=${q(link)}` },
    { label: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${q(link)}` },
    { label: "WhatsApp", href: `https://wa.me/?text=${q(`${text} ${link}`)}` },
    { label: "Bluesky", href: `https://bsky.app/intent/compose?text=${q(`${text} ${link}`)}` },
  ];
}

/** A mailto: with the subject and message ready, addressed to nobody (the person chooses). */
export function shareMailto(link: string): string {
  const subject = `Join me on the ${SITE.name} waitlist`;
  const body = `${shareMessage()} ${link}`;
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** The link as a QR code: an SVG with its own text alternative, dark on white whatever the page's colours. */
export async function shareQr(link: string): Promise<string> {
  const svg = await QRCode.toString(link, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return svg.replace(
    "<svg ",
    `<svg role="img" aria-label="QR code of your share link" width="160" height="160" class="rounded-lg ring-1 ring-ink-200" `,
  );
}

const NETWORK =
  "inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 font-semibold text-brand-700 underline hover:bg-ink-50";

/** The share section's body below its heading. */
export function shareActions(link: string, qr: string): string {
  const safe = escapeHtml(link);
  // Each network a 44 px target (a bare "X" would be 12 × 20): padded, its word where it was, the list's gap closed up.
  const networks = shareTargets(link)
    .map((target) => `<li><a class="${NETWORK}" href="${escapeHtml(target.href)}">${target.label}</a></li>`)
    .join("");
  return `<div class="mt-4 flex flex-col gap-2">
<label for="share-link" class="block text-sm font-semibold text-ink-900">Your share link</label>
<div class="flex gap-2">
<input id="share-link" type="text" readonly value="${safe}" class="block w-full rounded-lg border border-ink-200 bg-white px-3.5 py-2.5 text-base text-ink-900 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600">
<button type="button" data-copy="share-link" hidden class="shrink-0 rounded-full bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">Copy</button>
</div>
</div>
<p class="mt-2 text-sm text-ink-700" data-copy-status role="status"></p>
<div class="mt-4 flex flex-wrap items-center gap-3">
<a class="rounded-full px-5 py-2.5 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50" href="${escapeHtml(shareMailto(link))}">Share by e-mail</a>
<button type="button" data-share="share-link" data-share-text="${escapeHtml(shareMessage())}" hidden class="rounded-full px-5 py-2.5 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50">Share…</button>
</div>
<p class="mt-4 text-ink-700" id="share-networks">Or share it on</p>
<ul class="-ml-2 flex flex-wrap gap-1" aria-labelledby="share-networks">${networks}</ul>
<figure class="mt-6 flex flex-col items-start gap-2">${qr}<figcaption class="text-sm text-ink-700">Scan to open your share link on a phone.</figcaption></figure>`;
}
