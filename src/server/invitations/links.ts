/**
 * The addresses an invitation carries: the product's sign-up page (EARLY_ACCESS_URL, checked once with a message for
 * people), that page with the person's code, and their own status page. Used by waves, reminders and the status page.
 */
import { STATUS_PATHS } from "../../lib/waitlist/referral";

export class InviteConfigError extends Error {
  override name = "InviteConfigError";
}

/** EARLY_ACCESS_URL as a URL, or why it cannot be used (one line, for people). */
export function earlyAccessBase(value: string | null): URL {
  if (!value) {
    throw new InviteConfigError(
      "EARLY_ACCESS_URL is not set: set it to the product's sign-up page (e.g. https://app.noosphere.app/signup); nothing was changed.",
    );
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new InviteConfigError(`EARLY_ACCESS_URL must be an http(s) address, not "${value}"; nothing was changed.`);
  }
  return url;
}

/** The product's sign-up page with `invite=<code>` added to its own query string. */
export function inviteLink(base: URL, code: string): string {
  const url = new URL(base);
  url.searchParams.set("invite", code);
  return url.href;
}

/** A person's private status page (src/server/referrals/status-handler.ts). */
export const statusLink = (siteUrl: string, token: string) => `${siteUrl}${STATUS_PATHS.page}?token=${token}`;
