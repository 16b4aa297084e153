/**
 * What the double opt-in suites share: on one backend, a real SMTP server on 127.0.0.1, the sign-up and link
 * handlers as the platform calls them (each call waits for its after-the-answer e-mail), and the moves a visitor
 * makes (sign up, press a link's button, ask for a removal link). Each suite gets its own database.
 */
import type { Context } from "@netlify/functions";
import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import type { Store } from "../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createLinksHandler } from "../../src/server/links/handler";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import type { OpenedStore } from "./backends";
import { type CapturedMail, startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";

export const mailConfig = (smtpUrl: string, extra: Record<string, string> = {}) =>
  readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Noosphere <hello@noosphere.test>", RATE_LIMIT_MAX: "1000", ...extra });

export const linkTo = (mail: CapturedMail, path: string) => {
  const link = mail.links.find((href) => new URL(href).pathname === path);
  if (!link) throw new Error(`no ${path} link in:\n${mail.text}`);
  return link;
};

/** Registers the suite's hooks (only when the backend is available) and returns its moves and its state. */
export function consentHarness(available: boolean, open: () => Promise<OpenedStore>) {
  const state = {} as { smtp: TestSmtp; store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  const deps = { store: async () => state.store, config: () => state.config };
  const signupHandler = createWaitlistHandler(deps);
  const linksHandler = createLinksHandler(deps);
  const pending = new Set<Promise<unknown>>();

  beforeAll(async () => {
    if (!available) return;
    state.smtp = await startSmtp();
    opened = await open();
    state.store = opened.store;
    state.config = mailConfig(state.smtp.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await state.smtp?.close();
  });
  afterEach(() => {
    if (state.smtp) state.config = mailConfig(state.smtp.url);
    vi.restoreAllMocks();
  });

  /** Calls a handler as the platform does, then waits for its after-the-answer work (the e-mail). */
  async function call(handler: typeof signupHandler, request: Request, ip = "198.51.100.1"): Promise<Response> {
    const context: Context = createContext(request, ip, pending);
    const response = await handler(request, context);
    while (pending.size) await Promise.all(pending);
    return response;
  }

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
