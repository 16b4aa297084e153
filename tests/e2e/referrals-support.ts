/**
 * What the referral browser tests share (referrals.spec.ts: the status page; referrals-share.spec.ts: share
 * links): a real SMTP server per spec file, servers of a test's own, and the steps a person takes.
 */
import type { Browser, BrowserContext, Page, Response } from "@playwright/test";
import type { RunningServer } from "../../scripts/lib/server-process";
import { type CapturedMail, startSmtp, type TestSmtp } from "../support/smtp";
import { expect, expectNoAxeViolations, test } from "./fixtures";

export const ADMIN = "referrals-e2e-token-0123456789abcdef0123456789";
export const ISLAND = /\/_astro\/WaitlistDialog\.[\w-]+\.js$/;
export const SHARE_LINK = /^http:\/\/[^/]+\/\?via=[0-9a-hjkmnp-tv-z]{10}$/;
export const STATUS_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/;
/**
 * A real SMTP server on 127.0.0.1 for the calling spec file (started before its tests, closed after), and the
 * test's own server's log attached to a failure. Call once, at the top of a spec file.
 */
export function mailedServers() {
  let smtp: TestSmtp | undefined;
  let running: RunningServer | undefined;
  test.beforeAll(async () => {
    smtp = await startSmtp();
  });
  test.afterAll(async () => {
    await smtp?.close();
  });
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's parameters; this one needs no fixture
  test.afterEach(async ({}, testInfo) => {
    if (running && testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach("server output", { body: running.output(), contentType: "text/plain" });
    }
    running = undefined;
  });
  const mail = () => {
    if (!smtp) throw new Error("the SMTP server is not started: call mailedServers() at a spec file's top");
    return smtp;
  };
  return {
    mail,
    /** A server of the test's own with e-mail on (a fresh database, so places are known). */
    async serve(ownServer: (env: Record<string, string>) => Promise<RunningServer>): Promise<RunningServer> {
      running = await ownServer({
        SMTP_URL: mail().url,
        MAIL_FROM: "Noosphere <hello@noosphere.test>",
        WAITLIST_ADMIN_TOKEN: ADMIN,
      });
      return running;
    },
    /** Presses the confirmation e-mail's button without a browser; returns the status link it led to. */
    confirmByRequest: (base: string, email: string) => confirmByRequest(mail(), base, email),
    /** Opens `email`'s confirmation link in `page` and presses its button, as the person does. */
    confirmInBrowser: (page: Page, email: string) => confirmInBrowser(mail(), page, email),
  };
}

export const linkTo = (mail: CapturedMail | undefined, path: string) =>
  mail?.links.find((href) => new URL(href).pathname === path) ?? "";
/** An address no other test (in this worker's SMTP server) uses. */
export const unique = (who: string) => `${who}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** Signs `email` up as a script would (no browser), with no share link. */
export async function signUpByRequest(base: string, email: string) {
  const response = await fetch(`${base}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: base },
    body: JSON.stringify({ email, termsAccepted: true }),
  });
  expect(response.status).toBe(201);
}

async function confirmByRequest(smtp: TestSmtp, base: string, email: string): Promise<string> {
  const [mail] = await smtp.waitFor(email);
  const response = await fetch(linkTo(mail, "/waitlist/confirm"), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
  });
  expect(response.status).toBe(303);
  const location = response.headers.get("location") ?? "";
  expect(location).toMatch(STATUS_URL);
  return new URL(location.replace(/&confirmed$/, ""), base).href;
}

/** The response of the status page a confirmation lands on, and its link (without `&confirmed`, as e-mailed). */
async function confirmInBrowser(
  smtp: TestSmtp,
  page: Page,
  email: string,
): Promise<{ response: Response; link: string }> {
  const [mail] = await smtp.waitFor(email);
  await page.goto(linkTo(mail, "/waitlist/confirm"));
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your place" })).toBeVisible();
  const landed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/waitlist/status" && r.request().isNavigationRequest(),
  );
  await page.getByRole("button", { name: "Confirm my place" }).click();
  const response = await landed;
  await expect(page).toHaveURL(STATUS_URL);
  return { response, link: page.url().replace(/&confirmed$/, "") };
}

/** Fills a sign-up form's required fields (the island's, the early dialog's or /join's) and sends it. */
export async function signUp(form: ReturnType<Page["locator"]>, email: string) {
  await form.getByLabel("Email (required)").fill(email);
  await form.getByLabel("I accept the").check();
  await form.getByRole("button", { name: "Join the Waitlist" }).click();
}

/** The answer to `page`'s next sign-up (POST /api/waitlist), once it comes. */
export const signUpAnswer = (page: Page) =>
  page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/waitlist");

/** Checks that the sign-up was taken (`status`: 201 for the island's JSON, 303 for a form), saying what came if not. */
export async function expectTaken(answer: Promise<Response>, status: number): Promise<Response> {
  const response = await answer;
  const said = response.status() >= 400 ? `: ${await response.text()}` : "";
  expect(response.status(), `POST /api/waitlist answered ${response.status()}${said}`).toBe(status);
  return response;
}

/** Nothing of the visit is kept: no cookie, and (where scripts run) no Web Storage and no IndexedDB. */
export async function expectNothingKept(context: BrowserContext, page: Page, scripts: boolean) {
  expect(await context.cookies()).toEqual([]);
  if (!scripts) return;
  expect(await context.storageState({ indexedDB: true })).toEqual({ cookies: [], origins: [] });
  expect(
    await page.evaluate(async () => [localStorage.length, sessionStorage.length, (await indexedDB.databases()).length]),
  ).toEqual([0, 0, 0]);
}

/**
 * Axe on `url` as a browser without JavaScript shows it. Axe cannot run in such a context (it needs the page's
 * timers, which never fire there), so it runs in a context with JavaScript where the page's own scripts are all
 * refused: the response as served plus one more policy, `script-src 'none'`. The caller compares that page with
 * the one `noScript` (JavaScript off) shows, so axe checks what a visitor without JavaScript gets. `alsoCheck`, when
 * given, checks that page further after axe (the updates suites' no sideways scrolling).
 */
export async function expectNoAxeViolationsWithoutScripts(
  browser: Browser,
  noScript: Page,
  url: string,
  alsoCheck?: (page: Page) => Promise<void>,
) {
  const context = await contextLike(browser, noScript, true);
  const page = await context.newPage();
  await page.route(
    (target) => target.href === url,
    async (route) => {
      const response = await route.fetch();
      const headers = response.headers();
      const csp = headers["content-security-policy"];
      headers["content-security-policy"] = csp ? `${csp}, script-src 'none'` : "script-src 'none'";
      await route.fulfill({ response, headers });
    },
  );
  await page.goto(url);
  expect(await page.content()).toBe(await noScript.content());
  await expectNoAxeViolations(page);
  await alsoCheck?.(page);
  await context.close();
}

/** A context like the test's own (its viewport and device), with JavaScript on or off. */
export function contextLike(browser: Browser, page: Page, javaScriptEnabled: boolean) {
  const mobile = (page.viewportSize()?.width ?? 1280) < 768;
  return browser.newContext({
    javaScriptEnabled,
    viewport: page.viewportSize(),
    ...(mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
}
