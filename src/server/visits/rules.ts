/**
 * What a view is counted under, decided here and only here: the page (one of COUNTED_PAGES, else "other"), the
 * campaign's source, medium and name as attribution.ts reads them for a sign-up (so a source's visitors and its
 * sign-ups meet in the funnel), the referring site's host (never its path), and whether a share link was used.
 * Storage is bounded: a value over VALUE_LIMIT characters, or one that is not printable text, is kept as "other";
 * a page outside the list is "other"; so each combination is at most one row a day.
 */

import { COUNTED_PAGES } from "../../lib/visits/pages";
import { referralCodeOf } from "../../lib/waitlist/referral";

export const OTHER = "other";
/** The longest value kept as itself, in characters (code points). */
export const VALUE_LIMIT = 100;

/** One rollup's key, apart from the day. */
export interface VisitKey {
  page: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  share: boolean;
}

const PRINTABLE = /^[^\p{C}\u2028\u2029]+$/u;
const siteOf = (host: string) => host.toLowerCase().replace(/^www\./, "");

/** A value as kept: trimmed; none (null) when empty; "other" when too long or not one line of printable text. */
export function foldValue(value: string | null | undefined): string | null {
  const text = value?.trim() ?? "";
  if (text === "") return null;
  return [...text].length > VALUE_LIMIT || !PRINTABLE.test(text) ? OTHER : text;
}

/** A page as kept: its name when counted, else "other". */
export const foldPage = (page: unknown): string =>
  typeof page === "string" && (COUNTED_PAGES as readonly string[]).includes(page) ? page : OTHER;

/** The referring origin as kept: its host; null for this site or none; "other" when it is no web address. */
function referringHost(referrer: string, siteHost: string): string | null {
  if (referrer === "") return null;
  const from = URL.canParse(referrer) ? new URL(referrer) : null;
  if (!from || (from.protocol !== "https:" && from.protocol !== "http:")) return OTHER;
  if (siteOf(from.hostname) === siteOf(siteHost)) return null;
  return foldValue(from.hostname);
}

/**
 * The key of a view of `page` at an address with `query` (its `?…`), reached from `referrer` (an origin, "" when
 * none), on the site at `siteHost`; and whether it arrived from elsewhere (not a step from one of our pages).
 */
export function visitKeyOf(
  page: unknown,
  query: string,
  referrer: string,
  siteHost: string,
): { key: VisitKey; arrival: boolean } {
  const params = new URLSearchParams(query);
  const referrerHost = referringHost(referrer, siteHost);
  const fromUs = referrer !== "" && referrerHost === null;
  return {
    key: {
      page: foldPage(page),
      source: foldValue(params.get("utm_source") || params.get("ref")),
      medium: foldValue(params.get("utm_medium")),
      campaign: foldValue(params.get("utm_campaign")),
      referrer: referrerHost,
      share: referralCodeOf(`http://x/?${params}`) !== null,
    },
    arrival: !fromUs,
  };
}
