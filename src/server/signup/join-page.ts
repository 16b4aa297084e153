/**
 * GET /join, the sign-up form that works without JavaScript, answered by a function rather than as a file, for one
 * reason: where the visit came from. A visitor arriving by another site's link tells it (the Referer, the other
 * site's origin by the browser's default policy) only to the request for this page; a file on the CDN runs no code
 * of ours, and without JavaScript nothing on the page can read it either. So the function serves the built page
 * (dist/join.html, the same bytes) with its hidden referrer field (JOIN_REFERRER_ID) filled from that Referer, and
 * the form post carries it to the waitlist function, which applies attribution.ts's one rule, as for the island.
 * Only the origin is kept, only for http(s): the page's path and query on the other site stay in the browser.
 */
import { readFile } from "node:fs/promises";
import { JOIN_REFERRER_ID } from "../../lib/waitlist/capture";
import { FRIEND_NOTE_ATTRIBUTE, JOIN_REFERRAL_ID, REFERRAL_PARAM, referralCodeOf } from "../../lib/waitlist/referral";
import { compressedPage } from "../http/compress";
import { escapeHtml, SITE_HEADERS } from "../http/form-page";

/** The fields as Astro writes them; a value is put right after its id. */
const FIELD_ID = `id="${JOIN_REFERRER_ID}"`;
const REFERRAL_ID = `id="${JOIN_REFERRAL_ID}"`;
/** The "a friend invited you" note as Astro writes it, hidden; shown when the visit came by a share link. */
const FRIEND_NOTE = `hidden ${FRIEND_NOTE_ATTRIBUTE}`;

/**
 * The share code the visit came by: /join's own `via`, else that of the site's page that linked here (a visitor
 * without JavaScript who followed a share link to the home page, then its link to /join). Nothing is kept.
 */
export function referralOfVisit(request: Request): string {
  const own = new URL(request.url);
  if (own.searchParams.has(REFERRAL_PARAM)) return referralCodeOf(own.href) ?? "";
  const referer = request.headers.get("referer");
  if (!referer || !URL.canParse(referer) || new URL(referer).host !== own.host) return "";
  return referralCodeOf(referer) ?? "";
}

/** The referring site's origin as the field carries it, or "" when there is none worth keeping. */
export function referringOrigin(referer: string | null): string {
  if (!referer || !URL.canParse(referer)) return "";
  const url = new URL(referer);
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : "";
}

/** The built /join, read once per instance on first use; a page without its fields is an error, read again next time. */
export function joinPageLoader(page: URL): () => Promise<string> {
  let html: Promise<string> | undefined;
  const load = async () => {
    const text = await readFile(page, "utf8");
    for (const id of [FIELD_ID, REFERRAL_ID, FRIEND_NOTE]) {
      if (text.split(id).length !== 2) throw new Error(`${page.pathname} has no single ${id}`);
    }
    return text;
  };
  return () => {
    html ??= load();
    html.catch(() => (html = undefined)); // a failed read is tried again by the next request
    return html;
  };
}

/** The page with its two hidden fields filled (values already escaped) and the friend's note shown for a share code. */
export function fillJoinPage(html: string, from: string, code: string): string {
  // A function, not a string: `$&`, `$'` and `` $` `` in a string replacement are patterns, and a host may hold `$`.
  return html
    .replace(FIELD_ID, () => (from ? `${FIELD_ID} value="${from}"` : FIELD_ID))
    .replace(REFERRAL_ID, () => (code ? `${REFERRAL_ID} value="${code}"` : REFERRAL_ID))
    .replace(FRIEND_NOTE, () => (code ? FRIEND_NOTE_ATTRIBUTE : FRIEND_NOTE));
}

/**
 * The handler for `page` (the built /join): read once per instance, on the first request. A page without the field
 * (a build that lost it) is a 500 and a log line, never a form that silently drops the referrer.
 */
export function createJoinPageHandler(page: URL) {
  const html = joinPageLoader(page);
  return async (request: Request): Promise<Response> => {
    // The form posts to /api/waitlist: anything but reading the page is not for this path.
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Method not allowed. Use GET.\n", {
        status: 405,
        headers: { ...SITE_HEADERS, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    const from = escapeHtml(referringOrigin(request.headers.get("referer")));
    const body = fillJoinPage(await html(), from, referralOfVisit(request));
    // Compressed here, as the CDN compresses the other pages: it fits a new connection's first round trip.
    const page = compressedPage(request, body);
    return new Response(request.method === "HEAD" ? null : page.body, {
      headers: {
        ...SITE_HEADERS,
        ...page.headers,
        "Content-Type": "text/html; charset=utf-8",
        // Made for this visit's Referer: never kept by the CDN or the browser for another.
        "Cache-Control": "no-store",
      },
    });
  };
}
