/**
 * What the double opt-in suites share: on one backend, a real SMTP server on 127.0.0.1, the sign-up and link
 * handlers as the platform calls them (each call waits for its after-the-answer e-mail), and the moves a visitor
 * makes (sign up, press a link's button, ask for a removal link). Each suite gets its own database.
 */
import { afterEach, vi } from "vitest";
import { readConfig } from "../../src/server/config";
import { createLinksHandler } from "../../src/server/links/handler";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import type { OpenedStore } from "./backends";
import { handlerGround, ORIGIN } from "./handler-ground";
import type { CapturedMail } from "./smtp";

export { ORIGIN };

export const mailConfig = (smtpUrl: string, extra: Record<string, string> = {}) =>
  readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Noosphere <hello@noosphere.test>", RATE_LIMIT_MAX: "1000", ...extra });

export const linkTo = (mail: CapturedMail, path: string) => {
  const link = mail.links.find((href) => new URL(href).pathname === path);
  if (!link) throw new Error(`no ${path} link in:\n${mail.text}`);
  return link;
};

/** Registers the suite's hooks (only when the backend is available) and returns its moves and its state. */
export function consentHarness(available: boolean, open: () => Promise<OpenedStore>) {
  const { state, deps, pending, call } = handlerGround(available, open, { config: mailConfig, ip: "198.51.100.1" });
  const signupHandler = createWaitlistHandler(deps);
  const linksHandler = createLinksHandler(deps);
  afterEach(() => {
    if (state.smtp) state.config = mailConfig(state.smtp.url);
    vi.restoreAllMocks();
  });

  return {
    state,
    linksHandler,
    pending,
    signUp: (email: string, form = false) =>
      call(
        signupHandler,
        new Request(`${ORIGIN}/api/waitlist`, {
          method: "POST",
          headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
          body: form
            ? new URLSearchParams({ email, termsAccepted: "on" }).toString()
            : JSON.stringify({ email, termsAccepted: true }),
        }),
      ),
    /** The page's form posts back to the link's own address (token in the query), as a browser does. */
    pressButton: (link: string) =>
      call(
        linksHandler,
        new Request(link, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        }),
      ),
    requestRemoval: (email: string, ip?: string) =>
      call(
        linksHandler,
        new Request(`${ORIGIN}/waitlist/remove`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email }).toString(),
        }),
        ip,
      ),
    statusOf: async (email: string) =>
      (
        await state.store.db.query<{ status: string }>("SELECT status FROM waitlist WHERE lower(email) = lower($1)", [
          email,
        ])
      )[0]?.status ?? null,
  };
}
