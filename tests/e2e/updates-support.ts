/**
 * What the updates browser tests share (updates-choice.spec.ts: a person's side; updates-console.spec.ts: the
 * team's): each test's own server with e-mail on (fixtures.ts's `smtp`), people seeded as they stand, confirming as
 * a person would, signing in to the console's Updates area, sending an update from it, and the accessibility checks
 * every page of it gets (axe, no sideways scrolling, and axe as a browser without JavaScript shows a page). The
 * console's environment: console-support.ts; signing up by request, a mail's link and the check without scripts:
 * referrals-support.ts.
 */
import type { Browser, Page, TestInfo } from "@playwright/test";
import type { RunningServer } from "../../scripts/lib/server-process";
import type { Store } from "../../src/server/app/store";
import type { TestSmtp } from "../support/smtp";
import { ADMIN, checkState, FINISHED, mailEnv } from "./console-support";
import { test as base, expect, expectNoAxeViolations, type OwnServer, type Seed } from "./fixtures";
import { linkTo, expectNoAxeViolationsWithoutScripts as withoutScripts } from "./referrals-support";

export const WORDS =
  "Occasional e-mails from the Noosphere team while you wait: what we are building, and when the next people are let in. A few a year, no tracking, and every one has a link to stop them.";
export const STATUS_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/;
export const CHOSEN_URL = /\/waitlist\/status\?token=[A-Za-z0-9_-]{43}#updates$/;
export const SUBJECT = "Spring at Noosphere";
/** Two paragraphs, a line break in the second, and a link followed by a full stop (not part of the link). */
export const BODY =
  "Hello from the team!\n\nThe graph view is ready: https://noosphere.test/graph.\nMore people get in by May.";
export const FOOTER = "You are receiving this because you asked for updates when you joined the Noosphere waitlist.";

/** The running test's own server: its log goes with a failure (keepServerLog). */
export const current: { server: RunningServer | undefined } = { server: undefined };

/** Starts the test's own server and remembers it, so that a failure carries its log. */
export async function serverFor(
  ownServer: OwnServer,
  env: Record<string, string>,
  seed?: Seed,
): Promise<RunningServer> {
  current.server = await ownServer(env, seed);
  return current.server;
}

/** A test that takes `mailedServer` gets its own server with e-mail on, remembered (serverFor) for its log. */
export const test = base.extend<{ mailedServer: RunningServer }>({
  mailedServer: async ({ ownServer, smtp }, use) => {
    await use(await serverFor(ownServer, mailEnv(smtp)));
  },
});

/**
 * Each spec's afterEach (a hook here would be registered once per worker, for the first file that imports this
 * module): attaches the server's log to a failed test.
 */
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's parameters; this one needs no fixture
export async function keepServerLog({}, testInfo: TestInfo) {
  if (current.server && testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach("server output", { body: current.server.output(), contentType: "text/plain" });
  }
  current.server = undefined;
}

/** People as they stand: [address, status, said yes to updates (null: never asked)]. */
export function seedPeople(people: Array<[string, string, boolean | null]>) {
  return async (store: Store) => {
    for (const [email, status, consent] of people) {
      await store.db.query(
        "INSERT INTO waitlist (email, status, updates_consent, updates_consent_at) VALUES ($1, $2, $3, CASE WHEN $3::boolean IS NOT NULL THEN now() END)",
        [email, status, consent],
      );
    }
  };
}

export const to = (smtp: TestSmtp) => smtp.messages.map((m) => m.to).sort();

/** Opens `email`'s confirmation link in `page` and presses its button; returns the status page's link. */
export async function confirmInBrowser(page: Page, smtp: TestSmtp, email: string): Promise<string> {
  const [mail] = await smtp.waitFor(email);
  await page.goto(linkTo(mail, "/waitlist/confirm"));
  await page.getByRole("button", { name: "Confirm my place" }).click();
  await expect(page).toHaveURL(STATUS_URL);
  await expect(page.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  return page.url().replace(/&confirmed$/, "");
}

/** The status page's Updates section says `choice`, and offers the button that changes it. */
export async function expectChoice(page: Page, choice: string, button: string) {
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
export async function expectAccessible(page: Page) {
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
}

/** Axe on `url` as a browser without JavaScript shows it (referrals-support.ts's check), nothing wider than the screen. */
export const expectNoAxeViolationsWithoutScripts = (browser: Browser, noScript: Page, url: string) =>
  withoutScripts(browser, noScript, url, expectNoSidewaysScroll);

/** Signs in to the console as ADMIN by the e-mailed link's button; ends on the Updates page, marked in the navigation. */
export async function signInToUpdates(page: Page, smtp: TestSmtp, site: string, axe = false) {
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
  const areas = page.getByRole("navigation", { name: "Console" });
  // The overview itself is console.spec.ts's to check.
  await expect(areas.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await areas.getByRole("link", { name: "Updates" }).click();
  await expect(page).toHaveURL(`${site}/admin/updates`);
  await expect(page.getByRole("heading", { level: 1, name: "Updates" })).toBeVisible();
  await expect(areas.getByRole("link", { name: "Updates" })).toHaveAttribute("aria-current", "page");
}

/** Writes and sends an update from the Updates page to its whole audience, `audience` people. */
export async function sendFromConsole(page: Page, subject: string, body: string, audience: string) {
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Text").fill(body);
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: `Send to ${audience}…` }).click();
  await page.getByRole("button", { name: "Send now" }).click();
  // The send's own page, which refreshes itself until the background run is done.
  await expect(page.getByRole("status").last()).toHaveText(FINISHED, { timeout: 20_000 });
}

/** The past updates' rows, each cell's text (the header row first). */
export async function pastUpdates(page: Page) {
  const table = page.getByRole("region", { name: "Past updates" }).getByRole("table");
  return table
    .getByRole("row")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent?.trim() ?? "")),
    );
}

/** A finished update's page: its counts, what came back, and the e-mail it sent in its frames, checked whole. */
export async function expectSentPage(page: Page) {
  await expect(page.locator("dl.facts").first().locator("dt")).toHaveText([
    "Sent",
    "Failed",
    "Waiting to retry",
    "Skipped: stopped updates or left",
    "Still to send",
    "Speed",
    "Finished",
    "Started by",
    "Started",
  ]);
  await expect(page.getByRole("region", { name: "What came back" }).locator("dl")).toHaveText(
    "Hard bounces0 (0 %)Soft bounces0Complaints0 (0 %)",
  );
  const mail = page.locator(`iframe[title="The e-mail “${SUBJECT}”, on a phone"]`).contentFrame();
  await expect(mail.locator("p.nx-text").first()).toHaveText("Hello from the team!");
  await checkState(page, "update-sent");
  await shootFrames(page, "update-sent");
}

/**
 * A screenshot of each of the e-mail's frames, scrolled into view (a whole-page shot leaves a frame below the fold
 * blank), in the test's output folder like checkState's.
 */
export async function shootFrames(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  for (const where of ["phone", "computer"]) {
    const frame = page.locator(`iframe[title="The e-mail “${SUBJECT}”, on a ${where}"]`);
    await frame.scrollIntoViewIfNeeded();
    await expect(frame.contentFrame().locator("p.nx-text").first()).toBeVisible();
    // Its box as seen: on a phone, the computer's width scrolls sideways in it.
    await frame.locator("xpath=..").screenshot({ path: base.info().outputPath(`${name}-email-${where}-${width}.png`) });
  }
  // Back at the top: a whole-page shot taken scrolled down on a phone places its masks a few pixels off.
  await page.evaluate(() => window.scrollTo(0, 0));
}
