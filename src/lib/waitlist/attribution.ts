/**
 * Where a sign-up came from, without cookies or anything kept on the device: the campaign parameters of the page
 * the visitor signed up on, the host of another site that sent them there, and that page's path. One rule,
 * `attributionOf`, on every path: the island applies it in the browser (only the page knows `document.referrer`)
 * and sends the result, which the function cleans; for a form post the function applies it to the page the form
 * was on (the post's Referer) and the referring origin the page's script put in the form (REFERRER_FIELD in
 * capture.ts: the early dialog, /join). Without JavaScript, /join's field was filled by the function that served
 * the page, from the Referer of that request (src/server/signup/join-page.ts). A value that breaks
 * a rule is dropped (null), never a reason to refuse a sign-up.
 */

export const ATTRIBUTION_FIELDS = ["source", "medium", "campaign", "referrer", "page"] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Record<AttributionField, string | null>;

/** The longest value kept, in characters (code points): a host name's DNS limit; a path of a sensible length. */
export const ATTRIBUTION_LIMITS: Record<AttributionField, number> = {
  source: 100,
  medium: 100,
  campaign: 100,
  referrer: 253,
  page: 200,
};

export const NO_ATTRIBUTION: Attribution = { source: null, medium: null, campaign: null, referrer: null, page: null };

/** Printable text on one line: no control or format character (bidi overrides, zero-width), no line separator. */
const PRINTABLE = /^[^\p{C}\u2028\u2029]+$/u;
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const PATH = /^\/[^\s?#]*$/;

/** One field's value if it keeps the rules (trimmed), else null. */
function clean(field: AttributionField, value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || !PRINTABLE.test(text) || [...text].length > ATTRIBUTION_LIMITS[field]) return null;
  if (field === "referrer") return HOST.test(text) ? text : null;
  if (field === "page") return PATH.test(text) ? text : null;
  return text;
}

/** What a client sent as `attribution`, field by field: each valid value kept, everything else null. */
export function cleanAttribution(input: unknown): Attribution {
  const given = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  return Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, clean(field, given[field])])) as Attribution;
}

const parse = (url: string | null | undefined) => (url && URL.canParse(url) ? new URL(url) : null);
const siteOf = (host: string) => host.replace(/^www\./, "");

/**
 * The attribution of a sign-up made on `pageUrl`, which the visitor reached from `referrerUrl` (the page's
 * `document.referrer`; empty when typed in, or when the referring site sends none): `utm_source` (else `ref`),
 * `utm_medium`, `utm_campaign`, the referring site's host unless it is this site, and the path.
 */
export function attributionOf(pageUrl: string, referrerUrl = ""): Attribution {
  const page = parse(pageUrl);
  if (!page) return NO_ATTRIBUTION;
  const query = page.searchParams;
  const from = parse(referrerUrl);
  const external =
    from &&
    (from.protocol === "https:" || from.protocol === "http:") &&
    siteOf(from.hostname) !== siteOf(page.hostname);
  return cleanAttribution({
    source: query.get("utm_source") || query.get("ref"),
    medium: query.get("utm_medium"),
    campaign: query.get("utm_campaign"),
    referrer: external ? from.hostname : null,
    page: page.pathname,
  });
}
