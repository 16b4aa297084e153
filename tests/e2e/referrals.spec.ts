/**
 * Referrals in a real browser: the private status page a confirmation leads to, its share link, and sign-ups
 * through that link by each path a visitor can take (the island, the early dialog before the island, /join
 * without JavaScript), each counted once its person confirms. The tests that need e-mail start a server of their
 * own (a fresh database, so places are known) with SMTP_URL pointing at a real SMTP server on 127.0.0.1 that this
 * file starts; the e-mails' links are opened as a person opens them. Below the browser:
 * tests/integration/referrals/referrals.test.ts.
 */
import type { Browser, BrowserContext, Page, Response } from "@playwright/test";
import type { RunningServer } from "../../scripts/lib/server-process";
import { type CapturedMail, startSmtp, type TestSmtp } from "../support/smtp";
import { ANY_VIEWPORT, DESKTOP_ONLY, expect, expectNoAxeViolations, openMenuIfMobile, test } from "./fixtures";

const ADMIN = "referrals-e2e-token-0123456789abcdef0123456789";
const ISLAND = /\/_astro\/WaitlistDialog\.[\w-]+\.js$/;
const SHARE_LINK = /^http:\/\/[^/]+\/\?via=[0-9a-hjkmnp-tv-z]{10}$/;
const STATUS_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/;
let smtp: TestSmtp;

test.beforeAll(async () => {
  smtp = await startSmtp();
});
test.afterAll(async () => {
  await smtp?.close();
});

/** The running test's own server (one test at a time per worker): its log goes with a failure. */
let running: RunningServer | undefined;
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's parameters; this one needs no fixture
test.afterEach(async ({}, testInfo) => {
  if (running && testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach("server output", { body: running.output(), contentType: "text/plain" });
  }
  running = undefined;
});

const mailEnv = () => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
  WAITLIST_ADMIN_TOKEN: ADMIN,
});
const linkTo = (mail: CapturedMail | undefined, path: string) =>
  mail?.links.find((href) => new URL(href).pathname === path) ?? "";
/** An address no other test (in this worker's SMTP server) uses. */
const unique = (who: string) => `${who}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** Signs `email` up as a script would (no browser), with no share link. */
async function signUpByRequest(base: string, email: string) {
  const response = await fetch(`${base}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: base },
    body: JSON.stringify({ email, termsAccepted: true }),
  });
  expect(response.status).toBe(201);
}

/** Presses the confirmation e-mail's button without a browser; returns the status link it led to. */
async function confirmByRequest(base: string, email: string): Promise<string> {
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

/**
 * Opens `email`'s confirmation link in `page` and presses its button, as the person does; returns the response of
 * the status page it lands on and that page's link (without `&confirmed`, as the e-mail gives it).
 */
async function confirmInBrowser(page: Page, email: string): Promise<{ response: Response; link: string }> {
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
async function signUp(form: ReturnType<Page["locator"]>, email: string) {
  await form.getByLabel("Email (required)").fill(email);
  await form.getByLabel("I accept the").check();
  await form.getByRole("button", { name: "Join the Waitlist" }).click();
}

/** The answer to `page`'s next sign-up (POST /api/waitlist), once it comes. */
const signUpAnswer = (page: Page) =>
  page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/waitlist");

/** Checks that the sign-up was taken (`status`: 201 for the island's JSON, 303 for a form), saying what came if not. */
async function expectTaken(answer: Promise<Response>, status: number): Promise<Response> {
  const response = await answer;
  const said = response.status() >= 400 ? `: ${await response.text()}` : "";
  expect(response.status(), `POST /api/waitlist answered ${response.status()}${said}`).toBe(status);
  return response;
}

/** Nothing of the visit is kept: no cookie, and (where scripts run) no Web Storage and no IndexedDB. */
async function expectNothingKept(context: BrowserContext, page: Page, scripts: boolean) {
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
 * the one `noScript` (JavaScript off) shows, so axe checks what a visitor without JavaScript gets.
 */
async function expectNoAxeViolationsWithoutScripts(browser: Browser, noScript: Page, url: string) {
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
  await context.close();
}

/** A context like the test's own (its viewport and device), with JavaScript on or off. */
function contextLike(browser: Browser, page: Page, javaScriptEnabled: boolean) {
  const mobile = (page.viewportSize()?.width ?? 1280) < 768;
  return browser.newContext({
    javaScriptEnabled,
    viewport: page.viewportSize(),
    ...(mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
}

test("confirming leads to the status page: place, no referrals, share link, no cookie, noindex, accessible with and without JavaScript", async ({
  page,
  browser,
  context,
  ownServer,
}) => {
  test.slow(); // two people sign up and confirm, and axe runs on the page twice
  running = await ownServer(mailEnv());
  const server = running;
  // Ahead of the referrer: one confirmed person, and one who never confirms (not in line).
  const first = unique("first");
  await signUpByRequest(server.url, first);
  await confirmByRequest(server.url, first);
  await signUpByRequest(server.url, unique("pending"));

  const email = unique("referrer");
  await page.goto(`${server.url}/`);
  await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  await signUp(dialog, email);
  await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();

  const { response, link } = await confirmInBrowser(page, email);
  expect(response.status()).toBe(200);
  const headers = await response.allHeaders();
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["x-robots-tag"]).toBe("noindex");
  expect(headers["set-cookie"]).toBeUndefined();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

  await expect(page.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(
    page.getByText("Thank you: your address is confirmed. We have e-mailed you the link to this page too."),
  ).toBeVisible();
  await expect(page.locator("#status-place")).toHaveText("2nd of 2 waiting");
  await expect(page.locator("#status-referrals")).toHaveText("0 confirmed referrals");
  const shareInput = page.locator("#share-link");
  await expect(shareInput).toHaveAttribute("readonly", "");
  const share = await shareInput.inputValue();
  expect(share).toMatch(SHARE_LINK);
  expect(new URL(share).origin).toBe(server.url);
  await expect(page.getByRole("link", { name: "Leave the waitlist…" })).toBeVisible();
  // The line as a picture with its words, and the header's place instead of "Join the Waitlist".
  await expect(page.locator("#status-line figcaption")).toHaveText("1 ahead of youYou0 behind you");
  await expect(page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" })).toHaveCount(0);
  await expect(page.locator("header a", { hasText: "2nd in line" })).toHaveCount(2);
  await expect(page.getByRole("img", { name: "QR code of your share link" })).toBeVisible();
  for (const network of ["X", "LinkedIn", "WhatsApp", "Bluesky"]) {
    await expect(page.getByRole("list", { name: "Or share it on" }).getByRole("link", { name: network })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Share by e-mail" })).toHaveAttribute("href", /^mailto:\?subject=/);
  expect(await context.cookies()).toEqual([]);

  // The e-mail that keeps the link: the same page.
  const mails = await smtp.waitFor(email, 2);
  expect(mails[1]?.subject).toBe("Your place on the Noosphere waitlist");
  expect(linkTo(mails[1], "/waitlist/status")).toBe(link);

  // With JavaScript the copy button is there, and copies the link.
  const copy = page.getByRole("button", { name: "Copy", exact: true });
  await expect(copy).toBeVisible();
  await expectNoAxeViolations(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await copy.click();
  await expect(page.getByText("Link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(share);

  // Without JavaScript: the same page from the e-mail's link, the link selectable, no button that cannot work.
  const plain = await contextLike(browser, page, false);
  const noScript = await plain.newPage();
  const again = await noScript.goto(link);
  expect(again?.status()).toBe(200);
  expect((await again?.allHeaders())?.["set-cookie"]).toBeUndefined();
  await expect(noScript.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(noScript.getByText("Thank you: your address is confirmed.")).toHaveCount(0);
  await expect(noScript.locator("#status-place")).toHaveText("2nd of 2 waiting");
  await expect(noScript.locator("#status-referrals")).toHaveText("0 confirmed referrals");
  await expect(noScript.locator("#share-link")).toHaveValue(share);
  await expect(noScript.locator("button[data-copy]")).toBeHidden();
  await expect(noScript.getByRole("button", { name: "Copy", exact: true })).toHaveCount(0);
  await expect(noScript.getByRole("button", { name: "Share…" })).toHaveCount(0);
  await expectNoAxeViolationsWithoutScripts(browser, noScript, link);
  expect(await plain.cookies()).toEqual([]);
  await plain.close();
});

test(
  "a share link counts a referral by each way of signing up, once its person confirms, naming nobody and keeping nothing",
  DESKTOP_ONLY,
  async ({ page, browser, ownServer }) => {
    test.slow(); // five people sign up and confirm by their e-mails
    running = await ownServer(mailEnv());
    const server = running;
    const referrer = unique("referrer");
    await signUpByRequest(server.url, referrer);
    const statusLink = await confirmByRequest(server.url, referrer);
    await page.goto(statusLink);
    await expect(page.locator("#status-place")).toHaveText("1st of 1 waiting");
    await expect(page.locator("#status-referrals")).toHaveText("0 confirmed referrals");
    const share = await page.locator("#share-link").inputValue();
    expect(share).toMatch(SHARE_LINK);
    const code = new URL(share).searchParams.get("via") ?? "";

    const paths: { name: string; scripts: boolean; signUp: (visitor: Page, email: string) => Promise<void> }[] = [
      {
        name: "the island",
        scripts: true,
        async signUp(visitor, email) {
          await visitor.goto(share);
          // A friend's link says so on the page and in the dialog: no name, no address.
          await expect(visitor.getByRole("main").getByText("A friend invited you to join.")).toBeVisible();
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          const dialog = visitor.locator('[role="dialog"]');
          await expect(dialog.getByText("A friend invited you to join.")).toBeVisible();
          const answer = signUpAnswer(visitor);
          await signUp(dialog, email);
          const response = await expectTaken(answer, 201);
          // The island read the code from the page's address and sent it with the sign-up.
          expect(response.request().postDataJSON()).toMatchObject({ email, referral: code });
          await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
        },
      },
      {
        name: "the early dialog, sent before the island arrived",
        scripts: true,
        async signUp(visitor, email) {
          await visitor.route(ISLAND, () => {}); // never answered: the early dialog's own form is what is sent
          await visitor.goto(share);
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          const answer = signUpAnswer(visitor);
          await signUp(visitor.locator("#waitlist-early"), email);
          const response = await expectTaken(answer, 303);
          // Its form has no field for the code: the function reads it from the page the form was sent from.
          expect(response.request().postData()).not.toContain("referral");
          expect(await response.request().headerValue("referer")).toBe(share);
          await visitor.waitForURL("**/join/thanks*");
          await expect(visitor.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
        },
      },
      {
        name: "/join without JavaScript, from the share link's page",
        scripts: false,
        async signUp(visitor, email) {
          await visitor.goto(share);
          await visitor.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
          await expect(visitor).toHaveURL(`${server.url}/join`);
          // Filled by the function that answered GET /join, from that request's Referer (the share link).
          await expect(visitor.locator("#join-referral")).toHaveValue(code);
          const answer = signUpAnswer(visitor);
          await signUp(visitor.getByRole("main"), email);
          expect((await expectTaken(answer, 303)).request().postData()).toContain(`referral=${code}`);
          await expect(visitor).toHaveURL(`${server.url}/join/thanks#confirmation-sent`);
        },
      },
      {
        name: "/join?via= without JavaScript",
        scripts: false,
        async signUp(visitor, email) {
          await visitor.goto(`${server.url}/join?via=${code}`);
          await expect(visitor.locator("#join-referral")).toHaveValue(code);
          await expect(visitor.getByRole("main").getByText("A friend invited you to join.")).toBeVisible();
          const answer = signUpAnswer(visitor);
          await signUp(visitor.getByRole("main"), email);
          expect((await expectTaken(answer, 303)).request().postData()).toContain(`referral=${code}`);
          await expect(visitor).toHaveURL(`${server.url}/join/thanks#confirmation-sent`);
        },
      },
    ];

    const everyone = [referrer];
    /** Every status page's HTML as the server sent it. */
    const statusPages: string[] = [];
    /** The referrer's page again, as the server sends it now. */
    const referrerPage = async () => {
      const response = await page.reload();
      expect(response?.status()).toBe(200);
      return (await response?.text()) ?? "";
    };
    const counts = ["1 confirmed referral", "2 confirmed referrals", "3 confirmed referrals", "4 confirmed referrals"];
    const places = ["2nd of 2 waiting", "3rd of 3 waiting", "4th of 4 waiting", "5th of 5 waiting"];
    for (const [i, path] of paths.entries()) {
      await test.step(path.name, async () => {
        const email = unique(`referred${i + 1}`);
        everyone.push(email);
        const context = await browser.newContext({ javaScriptEnabled: path.scripts });
        const visitor = await context.newPage();
        await path.signUp(visitor, email);

        // Signed up, not confirmed: nothing counts yet.
        await smtp.waitFor(email);
        statusPages.push(await referrerPage());
        await expect(page.locator("#status-referrals")).toHaveText(
          i === 0 ? "0 confirmed referrals" : (counts[i - 1] ?? ""),
        );

        // The referred person confirms, and lands on a page of their own.
        const { response } = await confirmInBrowser(visitor, email);
        statusPages.push(await response.text());
        await expect(visitor.locator("#status-place")).toHaveText(places[i] ?? "");
        await expect(visitor.locator("#status-referrals")).toHaveText("0 confirmed referrals");
        expect(await visitor.locator("#share-link").inputValue()).not.toBe(share);
        await expectNothingKept(context, visitor, path.scripts);
        await context.close();

        statusPages.push(await referrerPage());
        await expect(page.locator("#status-referrals")).toHaveText(counts[i] ?? "");
        await expect(page.locator("#status-place")).toHaveText(`1st of ${i + 2} waiting`);
      });
    }

    // No status page names anyone: not the referred people, not the referrer.
    expect(statusPages).toHaveLength(paths.length * 3);
    for (const html of statusPages) {
      for (const email of everyone) {
        expect(html).not.toContain(email);
        expect(html).not.toContain(email.split("@")[0] ?? email);
      }
    }
  },
);

test("Leave asks once: what goes, a destructive Leave and a Cancel back; the question deletes nothing", async ({
  page,
  ownServer,
}, testInfo) => {
  test.slow(); // a sign-up, its confirmation, four pages and axe
  running = await ownServer(mailEnv());
  const server = running;
  const email = unique("leaver");
  await signUpByRequest(server.url, email);
  const link = await confirmByRequest(server.url, email);
  await page.goto(link);
  await page.getByRole("link", { name: "Leave the waitlist…" }).click();
  await expect(page).toHaveURL(`${link}&leave`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Leave the Noosphere waitlist?");
  await expect(page.locator("#leave-list li")).toHaveText([
    "your address and everything you sent us when you signed up",
    "your place in line (1st of 1 waiting): signing up again starts at the end",
    "your share link, and your referrals (no referrals yet)",
    "your choice about updates: we will not write to you again",
  ]);
  const leave = page.getByRole("button", { name: "Leave the waitlist" });
  // Destructive: the site's danger colour (--color-danger-700, #b42318), white text.
  expect(await leave.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(180, 35, 24)");
  await expectNoAxeViolations(page);
  await testInfo.attach(`leave-${page.viewportSize()?.width}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(link);
  await expect(page.locator("#status-place")).toHaveText("1st of 1 waiting");

  await page.getByRole("link", { name: "Leave the waitlist…" }).click();
  await page.getByRole("button", { name: "Leave the waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You've left the waitlist");
  expect((await page.goto(link))?.status()).toBe(404);
});

test(
  "a wrong, unknown or malformed status token gets one 404 that says how to get the link again",
  ANY_VIEWPORT,
  async ({ page, request }) => {
    const answers = new Set<string>();
    for (const path of [
      `/waitlist/status?token=${"A".repeat(43)}`, // well-formed, unknown
      "/waitlist/status?token=Zm9vYmFyLWJhei1xdXV4LWNvcmdlLWdyYXVsdC1nYXJw&confirmed", // well-formed, unknown
      `/waitlist/status?token=${"A".repeat(43)}&leave`, // well-formed, unknown, asking to leave
      "/waitlist/status?token=short", // malformed
      `/waitlist/status?token=${"A".repeat(42)}%3C`, // malformed
      `/waitlist/status?token=${"A".repeat(44)}`, // malformed
      "/waitlist/status", // none
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      answers.add(await response.text());
    }
    expect(answers.size).toBe(1);
    const shown = await page.goto(`/waitlist/status?token=${"A".repeat(43)}`);
    expect(shown?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This status link doesn't work");
    await expect(page.getByText("We can e-mail you the link again.")).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Send me my link" }).click();
    await expect(page).toHaveURL(/\/waitlist\/link$/);
    await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  },
);

test("a share link's page has the same Open Graph tags as the home page", ANY_VIEWPORT, async ({ page }) => {
  const tags = async (path: string) => {
    await page.goto(path);
    return page
      .locator('meta[property^="og:"], link[rel="canonical"]')
      .evaluateAll((all) =>
        all.map(
          (el) =>
            `${el.getAttribute("property") ?? el.getAttribute("rel")}=${el.getAttribute("content") ?? el.getAttribute("href")}`,
        ),
      );
  };
  const home = await tags("/");
  for (const name of ["og:title", "og:description", "og:image"]) {
    expect(home.find((tag) => tag.startsWith(`${name}=`))).toMatch(new RegExp(`^${name}=\\S`));
  }
  expect(await tags("/?via=abcdefghjk")).toEqual(home);
});

test("a visitor by a share link sees that a friend invited them, on the page, in the dialog and on /join", async ({
  page,
}, testInfo) => {
  const note = "A friend invited you to join.";
  await page.goto("/");
  await expect(page.getByText(note)).toBeHidden();
  await page.goto("/?via=abcdefghjk");
  await expect(page.getByRole("main").getByText(note)).toBeVisible();
  await expectNoAxeViolations(page);
  await testInfo.attach(`friend-note-${page.viewportSize()?.width}.png`, {
    body: await page.screenshot(),
    contentType: "image/png",
  });
  await openMenuIfMobile(page);
  await page.getByRole("link", { name: "Join the Waitlist" }).first().click();
  await expect(page.getByRole("dialog").getByText(note)).toBeVisible();
  // A code of another shape is no share link: no note.
  await page.goto("/join?via=not-a-code");
  await expect(page.getByText(note)).toBeHidden();
  await page.goto("/join?via=abcdefghjk");
  await expect(page.getByRole("main").getByText(note)).toBeVisible();
  await expectNoAxeViolations(page);
});
