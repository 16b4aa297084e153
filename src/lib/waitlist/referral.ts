/**
 * The share link's code, as data shared by the island, the page scripts and the functions: a person's public code
 * (10 letters and digits of a 32-letter alphabet without look-alikes, made by the database: migration 0011) rides
 * in the `via` parameter of a link to the site's own pages (`ref` already means a source, attribution.ts). Read
 * from the page's address when the sign-up is sent, so nothing is kept on the visitor's device; a code of another
 * shape is ignored, never a reason to refuse a sign-up.
 */
export const REFERRAL_PARAM = "via";
/** The sign-up's field that carries the code (JSON from the island, a hidden field of /join). */
export const REFERRAL_FIELD = "referral";
/** The id of /join's own such field, filled by the function that serves /join (src/server/signup/join-page.ts). */
export const JOIN_REFERRAL_ID = "join-referral";
export const REFERRAL_CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{10}$/;

/** A code as given (any case, spaces around it), or null when it has not the shape of one. */
export function cleanReferralCode(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toLowerCase();
  return REFERRAL_CODE_PATTERN.test(code) ? code : null;
}

/** The code in a page's address (`?via=…`), or null. */
export function referralCodeOf(url: string | null | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  return cleanReferralCode(new URL(url).searchParams.get(REFERRAL_PARAM));
}

/**
 * Marks the pages' "a friend invited you" notes (hidden until a share link's code is in the address): revealed by
 * the capture script on the static pages, and by the function that serves /join (src/server/signup/join-page.ts).
 */
export const FRIEND_NOTE_ATTRIBUTE = "data-friend-note";

/** The share link of `code` on the site at `origin`: its home page. */
export const shareLink = (origin: string, code: string) => `${origin}/?${REFERRAL_PARAM}=${code}`;

/** The private status page and the form that mails its link again. */
export const STATUS_PATHS = { page: "/waitlist/status", request: "/waitlist/link" } as const;
/** On the status page's address when a confirmation led there: the page says the address is confirmed. */
export const CONFIRMED_PARAM = "confirmed";
/** On the status page's address: the page asks whether to leave (the POST that deletes is that page's button). */
export const LEAVE_PARAM = "leave";
