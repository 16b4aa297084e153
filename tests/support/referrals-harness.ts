/**
 * The referrals tests' shared ground (tests/integration/referrals/): the backend's store, a real SMTP server, the
 * sign-up, links, status and status-link handlers over a stand-in for the built status page, and a person's way
 * through them: join (by a share link or not) and confirm by the e-mail's link, their page, its text, leaving,
 * their share code, a wave of invitations. Made afresh by each backend's describe block.
 */
import { expect } from "vitest";
import { readConfig } from "../../src/server/config";
import { earlyAccessBase, runWave, type WaveOptions } from "../../src/server/invitations";
import { createLinksHandler } from "../../src/server/links/handler";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { createStatusLinkHandler } from "../../src/server/referrals/link-handler";
import { createStatusHandler } from "../../src/server/referrals/status-handler";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import type { OpenedStore } from "./backends";
import { linkTo } from "./consent-harness";
import { BARE_STATUS, bareStatusFile, type Handler, handlerGround, ORIGIN, textOf } from "./handler-ground";

export { BARE_STATUS, ORIGIN, textOf };
export const PAGES = { status: bareStatusFile() };

/** The product's bearer token for redeeming codes (32 characters at least). */
export const REDEEM_TOKEN = "redeem-token-for-the-status-page-0123456789";
export const configOf = (smtpUrl: string, extra: Record<string, string> = {}) =>
  readConfig({
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    RATE_LIMIT_MAX: "1000",
    SITE_URL: ORIGIN,
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    ...extra,
  });

export function referralsGround(available: boolean, open: () => Promise<OpenedStore>) {
  const ground = handlerGround(available, open, { config: configOf, ip: "198.51.100.7" });
  const { state, deps, pending } = ground;
  const handlers = {
    signup: createWaitlistHandler(deps),
    links: createLinksHandler(deps),
    status: createStatusHandler(deps, PAGES),
    link: createStatusLinkHandler(deps),
  };
  const call = (handler: Handler, request: Request) => ground.call(handler, request);
  const json = (body: Record<string, unknown>) =>
    new Request(`${ORIGIN}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ termsAccepted: true, ...body }),
    });
  /** Signs `email` up (by `code`'s share link when given), confirms it by its e-mail, and returns its status link. */
  async function join(email: string, code?: string): Promise<string> {
    expect((await call(handlers.signup, json({ email, ...(code ? { referral: code } : {}) }))).status).toBe(201);
    return confirm(email);
  }
  async function confirm(email: string): Promise<string> {
    const [mail] = await state.smtp.waitFor(email);
    if (!mail) throw new Error("no mail");
    const pressed = await call(
      handlers.links,
      new Request(linkTo(mail, "/waitlist/confirm"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      }),
    );
    expect(pressed.status).toBe(303);
    const location = pressed.headers.get("location") ?? "";
    expect(location).toMatch(/^\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/);
    return `${ORIGIN}${location.replace("&confirmed", "")}`;
  }
  const page = async (link: string) => {
    const response = await call(handlers.status, new Request(link));
    return { response, html: await response.text() };
  };
  const text = async (link: string) => textOf((await page(link)).html);
  /** The status page's "Leave the waitlist" button, pressed. */
  const leave = (link: string) =>
    call(
      handlers.status,
      new Request(link, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body: "action=leave",
      }),
    );
  const codeOf = async (link: string) => /\?via=([0-9a-z]{10})/.exec((await page(link)).html)?.[1] ?? "";
  /** A wave of `next` invitations to EARLY_ACCESS_URL, mailed by a mailer of its own (closed after). */
  async function wave(next: number, extra: Partial<WaveOptions> = {}) {
    if (!state.config.mail) throw new Error("no mail settings");
    const mailer = createSmtpMailer(state.config.mail);
    try {
      return await runWave({
        store: state.store,
        next,
        delivery: { kind: "mail", mailer },
        accessUrl: earlyAccessBase(state.config.earlyAccessUrl),
        siteUrl: ORIGIN,
        ttlDays: 30,
        ...extra,
      });
    } finally {
      mailer.close();
    }
  }
  const reset = async (extra: Record<string, string> = {}) => {
    state.config = configOf(state.smtp.url, extra);
    await state.store.db.query("DELETE FROM waitlist");
    await state.store.db.query("DELETE FROM waitlist_mailbox_day");
    state.smtp.messages.length = 0;
  };

  return { state, call, handlers, pending, json, join, confirm, page, text, leave, codeOf, wave, reset };
}
