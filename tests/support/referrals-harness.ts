/**
 * The referrals tests' shared ground (tests/integration/referrals/): the backend's store, a real SMTP server, the
 * sign-up, links, status and status-link handlers over a stand-in for the built status page, and a person's way
 * through them: join (by a share link or not) and confirm by the e-mail's link, their page, its text, leaving,
 * their share code. Made afresh by each backend's describe block.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, expect } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import type { Store } from "../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createLinksHandler } from "../../src/server/links/handler";
import { createStatusLinkHandler } from "../../src/server/referrals/link-handler";
import { createStatusHandler } from "../../src/server/referrals/status-handler";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import type { OpenedStore } from "./backends";
import { linkTo } from "./consent-harness";
import { startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";
const dir = mkdtempSync(join(tmpdir(), "status-page-"));
const file = (name: string, html: string) => {
  writeFileSync(join(dir, name), html);
  return pathToFileURL(join(dir, name));
};
/** Stand-in for the build: the header's waitlist button, as built, and the status page's slot. */
export const BARE_STATUS = `<!doctype html><header><a href="/join" data-waitlist-open class="rounded-full px-4">Join the Waitlist</a></header><main><section id="status-body" aria-label="Your status">This status link doesn't work</section></main>`;
export const PAGES = { status: file("status.html", BARE_STATUS) };

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

/** The page's text, without its tags. */
export const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export function referralsGround(available: boolean, open: () => Promise<OpenedStore>) {
  const state = {} as { smtp: TestSmtp; store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  const deps = { store: async () => state.store, config: () => state.config };
  const handlers = {
    signup: createWaitlistHandler(deps),
    links: createLinksHandler(deps),
    status: createStatusHandler(deps, PAGES),
    link: createStatusLinkHandler(deps),
  };
  const pending = new Set<Promise<unknown>>();

  beforeAll(async () => {
    if (!available) return;
    state.smtp = await startSmtp();
    opened = await open();
    state.store = opened.store;
    state.config = configOf(state.smtp.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await state.smtp?.close();
  });

  async function call(handler: (r: Request, c: Context) => Promise<Response>, request: Request) {
    const response = await handler(request, createContext(request, "198.51.100.7", pending));
    while (pending.size) await Promise.all(pending);
    return response;
  }
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
  const reset = async (extra: Record<string, string> = {}) => {
    state.config = configOf(state.smtp.url, extra);
    await state.store.db.query("DELETE FROM waitlist");
    await state.store.db.query("DELETE FROM waitlist_mailbox_day");
    state.smtp.messages.length = 0;
  };

  return { state, call, handlers, pending, json, join, confirm, page, text, leave, codeOf, reset };
}
