/**
 * Updates to the people waiting, in a real browser at both sizes, each test against a server of its own and a real
 * SMTP server on 127.0.0.1: a confirmed person asks for updates on their status page (with and without
 * JavaScript); an admin signs in by e-mail, writes an update, previews it, sends a test to themselves, then sends
 * it, and exactly the consenting people get it once each; a person stops updates by the e-mail's link (its page
 * changes nothing until its button is pressed), and a mail provider's one-click POST stops another; bad input in
 * the console says what is wrong and sends nothing. Axe on every page of it. Below the browser:
 * tests/integration/updates/updates.test.ts.
 */
import type { Browser, Page } from "@playwright/test";
import type { RunningServer } from "../../scripts/lib/server-process";
import type { Store } from "../../src/server/app/store";
import { type CapturedMail, startSmtp, type TestSmtp } from "../support/smtp";
import { ANY_VIEWPORT, test as base, expect, expectNoAxeViolations } from "./fixtures";

const ADMIN = "ops@noosphere.test";
const WORDS =
  "Occasional e-mails from the Noosphere team while you wait: what we are building, and when the next people are let in. A few a year, no tracking, and every one has a link to stop them.";
const STATUS_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/;
const CHOSEN_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}#updates$/;
const SUBJECT = "Spring at Noosphere";
/** Two paragraphs, a line break in the second, and a link followed by a full stop (not part of the link). */
const BODY =
  "Hello from the team!\n\nThe graph view is ready: https://noosphere.test/graph.\nMore people get in by May.";
const FOOTER = "You are receiving this because you asked for updates when you joined the Noosphere waitlist.";

/** Each test's own SMTP server: what it received is that test's alone. */
const test = base.extend<{ smtp: TestSmtp }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's parameters; this one needs none
  smtp: async ({}, use) => {
    const smtp = await startSmtp();
    await use(smtp);
    await smtp.close();
  },
});

/** The running test's own server: its log goes with a failure. */
let running: RunningServer | undefined;
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's parameters; this one needs no fixture
test.afterEach(async ({}, testInfo) => {
  if (running && testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach("server output", { body: running.output(), contentType: "text/plain" });
  }
  running = undefined;
});

const mailEnv = (smtp: TestSmtp) => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
  ADMIN_EMAILS: ADMIN,
});

/** People as they stand: [address, status, said yes to updates (null: never asked)]. */
function seedPeople(people: Array<[string, string, boolean | null]>) {
  return async (store: Store) => {
    for (const [email, status, consent] of people) {
      await store.db.query(
        "INSERT INTO waitlist (email, status, updates_consent, updates_consent_at) VALUES ($1, $2, $3, CASE WHEN $3::boolean IS NOT NULL THEN now() END)",
        [email, status, consent],
      );
    }
  };
}

const linkTo = (mail: CapturedMail | undefined, path: string) =>
  mail?.links.find((href) => new URL(href).pathname === path) ?? "";
const to = (smtp: TestSmtp) => smtp.messages.map((m) => m.to).sort();

/** Signs `email` up as a script would (no browser). */
async function signUpByRequest(site: string, email: string) {
  const response = await fetch(`${site}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: site },
    body: JSON.stringify({ email, termsAccepted: true }),
  });
  expect(response.status).toBe(201);
}

/** Opens `email`'s confirmation link in `page` and presses its button; returns the status page's link. */
async function confirmInBrowser(page: Page, smtp: TestSmtp, email: string): Promise<string> {
  const [mail] = await smtp.waitFor(email);
  await page.goto(linkTo(mail, "/waitlist/confirm"));
  await page.getByRole("button", { name: "Confirm my place" }).click();
  await expect(page).toHaveURL(STATUS_URL);
  await expect(page.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  return page.url().replace(/&confirmed$/, "");
}

/** The status page's Updates section says `choice`, and offers the button that changes it. */
async function expectChoice(page: Page, choice: string, button: string) {
  await expect(page.getByRole("heading", { level: 2, name: "Updates" })).toBeVisible();
  await expect(page.getByText(WORDS, { exact: true })).toBeVisible();
  await expect(page.locator("#updates-choice")).toHaveText(choice);
  await expect(page.getByRole("button", { name: button })).toBeVisible();
}

/**
 * Nothing wider than the screen, which axe does not check (WCAG 1.4.10, reflow): on a phone a page that scrolls
 * sideways hides part of each line. Names what overflows.
 */
async function expectNoSidewaysScroll(page: Page) {
  const wide = await page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    return [...document.body.querySelectorAll("*")]
      .filter((e) => e.scrollWidth > e.clientWidth && e.clientWidth > 0 && getComputedStyle(e).overflowX === "visible")
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ""}: ${e.scrollWidth} px in ${e.clientWidth}`,
      );
  });
  expect(wide, `"${await page.title()}" (${page.url()}) is wider than the screen`).toEqual([]);
}

/** Axe, and no sideways scrolling. */
async function expectAccessible(page: Page) {
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
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

/**
 * Axe on `url` as a browser without JavaScript shows it (as in referrals.spec.ts): axe needs the page's timers, so
 * it runs with JavaScript on and the page's own scripts refused (`script-src 'none'` added to the response), and
 * that page is compared with the one `noScript` (JavaScript off) shows.
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
  await expectNoSidewaysScroll(page);
  await context.close();
}

/** Signs in to the console as ADMIN by the e-mailed link's button; ends on the Updates page. */
async function signInToUpdates(page: Page, smtp: TestSmtp, site: string, axe = false) {
  await page.goto(`${site}/admin`);
  if (axe) await expectAccessible(page);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "If that address may use the console, a sign-in link is on its way. It works once, for 15 minutes.",
  );
  const [mail] = await smtp.waitFor(ADMIN);
  await page.goto(mail?.links[0] ?? "");
  if (axe) await expectAccessible(page);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();
  if (axe) await expectAccessible(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Updates" }).click();
  await expect(page).toHaveURL(`${site}/admin/updates`);
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
}

/** Writes and sends an update from the Updates page to its whole audience, `audience` people. */
async function sendFromConsole(page: Page, subject: string, body: string, audience: string) {
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Text").fill(body);
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: `Send to ${audience}…` }).click();
  await page.getByRole("button", { name: "Send now" }).click();
  // The send's own page, which refreshes itself until the background run is done.
  await expect(page.getByRole("status").last()).toHaveText("Done", { timeout: 20_000 });
}

/** The past updates' rows, each cell's text (the header row first). */
async function pastUpdates(page: Page) {
  const table = page.getByRole("region", { name: "Past updates" }).getByRole("table");
  return table
    .getByRole("row")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent?.trim() ?? "")),
    );
}

test("a confirmed person asks for updates on their status page, and can stop them there, with or without JavaScript", async ({
  page,
  browser,
  smtp,
  ownServer,
}) => {
  running = await ownServer(mailEnv(smtp));
  const server = running;

  // With JavaScript: confirming leads to the page, which offers updates without assuming a yes.
  const email = "with-scripts@example.com";
  await signUpByRequest(server.url, email);
  const link = await confirmInBrowser(page, smtp, email);
  await expectChoice(page, "You have not asked for these updates.", "Send me updates");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send me updates" }).click();
  await expect(page).toHaveURL(CHOSEN_URL);
  expect(page.url()).toBe(`${link}#updates`);
  await expectChoice(page, "You get these updates.", "Stop these updates");
  await expectAccessible(page);
  // The choice is kept: the e-mailed link's page says it too.
  await page.goto(link);
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  await page.getByRole("button", { name: "Stop these updates" }).click();
  await expect(page).toHaveURL(CHOSEN_URL);
  await expectChoice(page, "You have stopped these updates.", "Send me updates");
  await expectAccessible(page);

  // Without JavaScript: the same form works, and the page is accessible as such a browser shows it.
  const plain = await contextLike(browser, page, false);
  const noScript = await plain.newPage();
  const other = "without-scripts@example.com";
  await signUpByRequest(server.url, other);
  const otherLink = await confirmInBrowser(noScript, smtp, other);
  await expectChoice(noScript, "You have not asked for these updates.", "Send me updates");
  await noScript.getByRole("button", { name: "Send me updates" }).click();
  await expect(noScript).toHaveURL(CHOSEN_URL);
  expect(noScript.url()).toBe(`${otherLink}#updates`);
  await expectChoice(noScript, "You get these updates.", "Stop these updates");
  await noScript.goto(otherLink);
  await expect(noScript.locator("#updates-choice")).toHaveText("You get these updates.");
  await expectNoAxeViolationsWithoutScripts(browser, noScript, otherLink);
  await plain.close();

  // Choosing sent no e-mail: each person has their confirmation and their status link, nothing more.
  await Promise.all([smtp.waitFor(email, 2), smtp.waitFor(other, 2)]);
  expect(to(smtp)).toEqual([email, email, other, other]);
});

test("the console writes an update, previews it, tests it on the admin alone, and sends it once to each person who said yes", async ({
  page,
  smtp,
  ownServer,
}) => {
  running = await ownServer(
    mailEnv(smtp),
    seedPeople([
      ["alice@example.com", "confirmed", true],
      ["bob@example.com", "confirmed", true],
      ["carol@example.com", "confirmed", null],
      ["dave@example.com", "confirmed", false],
      ["grace@example.com", "pending", null],
    ]),
  );
  const server = running;
  await signInToUpdates(page, smtp, server.url, true);
  await expect(
    page.getByText(
      'To the 2 confirmed people who said yes to updates. Plain text: a blank line starts a paragraph, and links are made clickable. Every update ends with a "Stop these updates" link.',
    ),
  ).toBeVisible();
  await expect(page.getByText("No update has been sent yet.")).toBeVisible();
  await expectAccessible(page);

  // The preview: who, the e-mail as HTML (its paragraphs, line break and link), the plain-text part.
  await page.getByLabel("Subject").fill(SUBJECT);
  await page.getByLabel("Text").fill(BODY);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Preview the update" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Who gets it" }).getByRole("paragraph")).toHaveText(
    "It will reach 2 people: everyone confirmed who said yes to updates.",
  );
  await expect(page.getByText(`Subject: ${SUBJECT}`)).toBeVisible();
  const paragraphs = await page.locator(".mail > p").evaluateAll((all) => all.map((p) => p.innerHTML));
  expect(paragraphs).toEqual([
    "Hello from the team!",
    'The graph view is ready: <a href="https://noosphere.test/graph">https://noosphere.test/graph</a>.<br>More people get in by May.',
    `--<br>${FOOTER}<br>Your place in line: ${server.url}/waitlist/status?token=…<br>Stop these updates: ${server.url}/waitlist/unsubscribe?token=…<br><br>— Noosphere<br>${server.url}`,
  ]);
  await expect(page.locator(".mail").getByRole("link", { name: "https://noosphere.test/graph" })).toHaveAttribute(
    "href",
    "https://noosphere.test/graph",
  );
  const plainPart = page.locator("details pre");
  await expect(plainPart).toBeHidden();
  await expectAccessible(page);
  await page.getByText("The plain-text part").click();
  await expect(plainPart).toHaveText(
    `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${server.url}/waitlist/status?token=…\nStop these updates: ${server.url}/waitlist/unsubscribe?token=…\n\n— Noosphere\n${server.url}\n`,
  );
  await expectAccessible(page);

  // A test goes to the signed-in admin, and nobody else.
  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByRole("status")).toHaveText(`A test went to ${ADMIN} only.`);
  await expectAccessible(page);
  const [, testMail] = await smtp.waitFor(ADMIN, 2);
  expect(to(smtp)).toEqual([ADMIN, ADMIN]);
  expect(testMail?.subject).toBe(`[Test] ${SUBJECT}`);
  expect(testMail?.text).toBe(
    `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${server.url}/waitlist/status?token=test\nStop these updates: ${server.url}/waitlist/unsubscribe?token=test\n\n— Noosphere\n${server.url}\n`,
  );

  // Sending: a confirmation, then the send's own page, which follows the run in the background to its end.
  await page.getByRole("button", { name: "Send to 2 people…" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Send the update" })).toBeVisible();
  await expect(page.getByText(`Send “${SUBJECT}” to 2 people now? This cannot be undone.`)).toBeVisible();
  await expectAccessible(page);
  const ticket = await page.locator('input[name="ticket"]').inputValue();
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Update: ${SUBJECT}` })).toBeVisible();
  // The page refreshes itself every 3 seconds while the run goes on, and stops once it is done.
  await expect(page.getByRole("status").last()).toHaveText("Done", { timeout: 20_000 });
  await expect(page.getByRole("progressbar", { name: `${SUBJECT}: 2 of 2 (100%)` })).toHaveAttribute("value", "2");
  await expectAccessible(page);

  // Exactly the two who said yes, once each (the page answers once the SMTP server accepted every message).
  expect(to(smtp)).toEqual(["alice@example.com", "bob@example.com", ADMIN, ADMIN]);
  for (const person of ["alice@example.com", "bob@example.com"]) {
    const [mail] = await smtp.waitFor(person);
    const unsubscribe = linkTo(mail, "/waitlist/unsubscribe");
    expect(unsubscribe).toMatch(/^http:\/\/[^/]+\/waitlist\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
    expect(new URL(unsubscribe).origin).toBe(server.url);
    // Their own status page, by a link derived from who they are (src/server/referrals/status-token.ts).
    const status = linkTo(mail, "/waitlist/status");
    expect(status).toMatch(/^http:\/\/[^/]+\/waitlist\/status\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail?.subject).toBe(SUBJECT);
    expect(mail?.text).toBe(
      `${BODY}\n\n--\n${FOOTER}\nYour place in line: ${status}\nStop these updates: ${unsubscribe}\n\n— Noosphere\n${server.url}\n`,
    );
    expect(mail?.html).toMatch(
      /<a class="nx-link" href="https:\/\/noosphere\.test\/graph" style="[^"]*"[^>]*>https:\/\/noosphere\.test\/graph<\/a>\.<br>More people get in by May\./,
    );
    expect(mail?.rawHeaders.get("list-unsubscribe")).toBe(`List-Unsubscribe: <${unsubscribe}>`);
    expect(mail?.rawHeaders.get("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  }
  // Alice's status link opens her own page, her place in line on it (in a tab of its own: this one goes on).
  const [alice] = await smtp.waitFor("alice@example.com");
  const hers = await page.context().newPage();
  await hers.goto(linkTo(alice, "/waitlist/status"));
  await expect(hers.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(hers.locator("header a", { hasText: "1st in line" })).toHaveCount(2);
  await hers.close();

  // The same confirmation pressed again (its ticket) finds the update made, and sends nothing new.
  const again = await page.request.post(`${server.url}/admin/updates`, {
    headers: { Origin: server.url },
    form: { action: "send", subject: SUBJECT, body: BODY, ticket },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("with this text was already sent");
  expect(to(smtp)).toEqual(["alice@example.com", "bob@example.com", ADMIN, ADMIN]);

  // The past updates: one, sent to two, none failed, nobody stopped since.
  await page.getByRole("link", { name: "Back", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
  const past = await pastUpdates(page);
  expect(past.map((row) => row.slice(1))).toEqual([
    ["Subject", "Sent", "Failed", "Unsubscribed since", "State"],
    [SUBJECT, "2", "0", "0", "Sent"],
  ]);
  expect(past[1]?.[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expectAccessible(page);
});

test("an update's link opens a page that changes nothing until its button stops the updates; a provider's one-click POST stops them too", async ({
  page,
  browser,
  smtp,
  ownServer,
}) => {
  running = await ownServer(mailEnv(smtp));
  const server = running;

  // Two people confirm and say yes; one confirms and does not.
  const people = { reader: "reader@example.com", provider: "provider@example.com", quiet: "quiet@example.com" };
  const links: Record<string, string> = {};
  for (const [who, email] of Object.entries(people)) {
    await signUpByRequest(server.url, email);
    links[who] = await confirmInBrowser(page, smtp, email);
    if (who === "quiet") continue;
    await page.getByRole("button", { name: "Send me updates" }).click();
    await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  }

  // An admin, in a browser of their own, sends an update.
  const adminContext = await contextLike(browser, page, true);
  const admin = await adminContext.newPage();
  await signInToUpdates(admin, smtp, server.url);
  await sendFromConsole(admin, SUBJECT, BODY, "2 people");
  // Each of the two has their confirmation, their status link and the update; the quiet one no update.
  await Promise.all([smtp.waitFor(people.reader, 3), smtp.waitFor(people.provider, 3), smtp.waitFor(people.quiet, 2)]);
  const updates = smtp.messages.filter((m) => m.subject === SUBJECT);
  expect(updates.map((m) => m.to).sort()).toEqual([people.provider, people.reader]);

  // The link opens a page with one button; opening it (a person, or a link scanner) changes nothing.
  const update = updates.find((m) => m.to === people.reader);
  const unsubscribe = linkTo(update, "/waitlist/unsubscribe");
  expect(unsubscribe).toMatch(/^http:\/\/[^/]+\/waitlist\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
  const shown = await page.goto(unsubscribe);
  expect(shown?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Stop these updates" })).toBeVisible();
  await expect(
    page.getByText(
      "One click and we stop sending you updates. You stay on the waitlist, and we will still write when your early access is ready.",
    ),
  ).toBeVisible();
  // Leaving uses the link in hand, not another e-mail.
  await expect(page.getByRole("link", { name: "leave the waitlist altogether" })).toHaveAttribute(
    "href",
    `${new URL(unsubscribe).pathname}${new URL(unsubscribe).search}&leave`,
  );
  await expectAccessible(page);
  await page.reload(); // opened twice, as a link scanner and then the person might
  await page.goto(links["reader"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");

  // Its button stops them.
  await page.goto(unsubscribe);
  const answer = page.waitForResponse((r) => r.url() === unsubscribe && r.request().method() === "POST");
  await page.getByRole("button", { name: "Stop these updates" }).click();
  expect((await answer).status()).toBe(303);
  // Back on the page, which knows she has stopped and offers them again.
  await expect(page).toHaveURL(unsubscribe);
  await expect(page.getByRole("heading", { level: 1, name: "You have stopped these updates" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop these updates" })).toHaveCount(0);
  await expectAccessible(page);
  await page.goto(links["reader"] ?? "");
  await expectChoice(page, "You have stopped these updates.", "Send me updates");
  // "Send me updates again", from the same link: her choice is yes again; then she stops once more.
  await page.goto(unsubscribe);
  await page.getByRole("button", { name: "Send me updates again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You'll get updates again" })).toBeVisible();
  await page.goto(links["reader"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  await page.goto(unsubscribe);
  await page.getByRole("button", { name: "Stop these updates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You have stopped these updates" })).toBeVisible();

  // A mail provider's one-click POST (RFC 8058): the form body alone, no cookie, no Origin, no Referer.
  const providerMail = updates.find((m) => m.to === people.provider);
  const header = providerMail?.rawHeaders.get("list-unsubscribe") ?? "";
  const oneClick = /^List-Unsubscribe: <(.+)>$/.exec(header)?.[1] ?? "";
  expect(oneClick).toBe(linkTo(providerMail, "/waitlist/unsubscribe"));
  const posted = await fetch(oneClick, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(posted.status).toBe(200);
  expect(posted.headers.get("set-cookie")).toBeNull();
  expect(await posted.text()).toContain("You won't get these updates");
  await page.goto(links["provider"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You have stopped these updates.");
  await page.goto(links["quiet"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You have not asked for these updates.");

  // The console counts both as unsubscribed since; nobody is left to reach.
  await admin.getByRole("link", { name: "Back", exact: true }).click();
  expect((await pastUpdates(admin)).map((row) => row.slice(1))).toEqual([
    ["Subject", "Sent", "Failed", "Unsubscribed since", "State"],
    [SUBJECT, "2", "0", "2", "Sent"],
  ]);
  await expect(admin.getByText("To the 0 confirmed people who said yes to updates.", { exact: false })).toBeVisible();
  await adminContext.close();
});

test(
  "bad input in the console says what is wrong and sends nothing: an empty text, a text over 100 KB, a subject of two lines",
  ANY_VIEWPORT,
  async ({ page, smtp, ownServer }) => {
    running = await ownServer(mailEnv(smtp), seedPeople([["alice@example.com", "confirmed", true]]));
    const server = running;
    await signInToUpdates(page, smtp, server.url);
    const alert = page.getByRole("alert");

    // A text of blank lines only (the field's `required` lets it through): the page says so, and keeps the subject.
    await page.getByLabel("Subject").fill(SUBJECT);
    await page.getByLabel("Text").fill("  \n\n  \n");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(alert).toHaveText("Write the update's text. Nothing was sent.");
    await expect(page.getByLabel("Subject")).toHaveValue(SUBJECT);
    await expectAccessible(page);

    // A text over 100 KB.
    await page.getByLabel("Text").fill("a".repeat(100 * 1024 + 1));
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(alert).toHaveText("The text is 101 KB; an update may be at most 100 KB. Nothing was sent.");
    await expect(page.getByLabel("Text")).toHaveValue("a".repeat(100 * 1024 + 1));
    await expectAccessible(page);

    // What only a crafted POST can send, straight to the last step (with a ticket): each refused, nothing sent.
    const ticket = "A".repeat(22);
    const crafted: Array<[Record<string, string>, string]> = [
      [{ subject: SUBJECT, body: "" }, "Write the update's text. Nothing was sent."],
      [{ subject: "", body: BODY }, "Write a subject. Nothing was sent."],
      [
        { subject: "Spring\r\nBcc: everyone@example.com", body: BODY },
        "The subject must be one line: remove the line break. Nothing was sent.",
      ],
      [
        { subject: SUBJECT, body: "é".repeat(51_201) },
        "The text is 101 KB; an update may be at most 100 KB. Nothing was sent.",
      ],
      // Pasted far past the limit (2.4 MB as the form sends it): still the rule's own message, not a refusal.
      [
        { subject: SUBJECT, body: "é".repeat(400_000) },
        "The text is 782 KB; an update may be at most 100 KB. Nothing was sent.",
      ],
    ];
    for (const [fields, said] of crafted) {
      for (const action of ["preview", "test", "confirm", "send"]) {
        const response = await page.request.post(`${server.url}/admin/updates`, {
          headers: { Origin: server.url },
          form: { action, ticket, ...fields },
        });
        expect(response.status(), `${action} ${JSON.stringify(fields.subject)}`).toBe(400);
        expect(await response.text()).toContain(`<p class="error" role="alert">${said.replaceAll("'", "&#39;")}</p>`);
      }
    }

    // Nothing went out, and no update was recorded.
    expect(to(smtp)).toEqual([ADMIN]);
    await page.reload();
    await expect(page.getByText("No update has been sent yet.")).toBeVisible();
  },
);

test(
  "with nobody who said yes, the preview says nobody would receive it and offers no send",
  ANY_VIEWPORT,
  async ({ page, smtp, ownServer }) => {
    running = await ownServer(
      mailEnv(smtp),
      seedPeople([
        ["carol@example.com", "confirmed", null],
        ["dave@example.com", "confirmed", false],
        ["grace@example.com", "pending", null],
      ]),
    );
    const server = running;
    await signInToUpdates(page, smtp, server.url);
    await page.getByLabel("Subject").fill(SUBJECT);
    // The most an update may be: exactly 100 KB.
    await page.getByLabel("Text").fill(`${"abcd ".repeat(20_479)}abcde`);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Preview the update" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(
      "Nobody would receive this update: no confirmed person on the list has said yes to updates yet.",
    );
    await expect(page.getByRole("button", { name: /^Send to/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Send a test to me" })).toBeVisible();
    await expectAccessible(page);
    // Asked for the confirmation anyway (a crafted POST): the same answer, nothing sent.
    const response = await page.request.post(`${server.url}/admin/updates`, {
      headers: { Origin: server.url },
      form: { action: "confirm", subject: SUBJECT, body: BODY },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(
      '<p class="error" role="alert">Nobody would receive this update: no confirmed person on the list has said yes to updates yet. Nothing was sent.</p>',
    );
    expect(to(smtp)).toEqual([ADMIN]);
  },
);
