import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { type RunningServer, startServer } from "../../scripts/lib/server-process";
import { createStore, type Store } from "../../src/server/app/store";
import { openPgliteDb } from "../../src/server/db/pglite";
import { copyDatabase, makeEmptyDatabase } from "../support/embedded-database";
import { startSmtp, type TestSmtp } from "../support/smtp";

export const PAGES = [
  "/",
  "/product",
  "/terms-of-service",
  "/join",
  "/join/thanks",
  "/waitlist/confirm",
  "/waitlist/remove",
  "/waitlist/confirmed",
  "/this-page-does-not-exist",
] as const;
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Tags that choose a test's project in playwright.config.ts, so a test that one project does not need is not
 * even started there (a skipped test still opens a browser context and runs its hooks):
 * - ANY_VIEWPORT: its outcome cannot depend on the viewport (response headers, the HTML's content, logic
 *   behind the dialog that the layout does not touch); the desktop project runs it.
 * - DESKTOP_ONLY: a desktop gesture (hover, the keyboard-first layout), or a test that starts a server of its
 *   own and checks the server, not the layout.
 * - MOBILE_ONLY: what exists below 768 px only (the hamburger menu) or on touch.
 */
export const ANY_VIEWPORT = { tag: "@any-viewport" };
export const DESKTOP_ONLY = { tag: "@desktop-only" };
export const MOBILE_ONLY = { tag: "@mobile-only" };

/**
 * Runs axe on the page as it is now and fails with the violations listed. With `axe.run` in the page itself
 * (legacy mode): the default runs each frame apart, then opens a blank page and loads axe again to merge the
 * results, for the cross-origin frames that no page here has (frame-ancestors 'none', no iframes). Same
 * findings, a third less CPU per check.
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode().analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary).toEqual([]);
}

/** True on the narrow project, where the hamburger replaces the links. */
export function isMobile(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1280) < 768;
}

/** Opens the mobile menu when the viewport is narrow; a no-op on desktop. */
export async function openMenuIfMobile(page: Page) {
  if (!isMobile(page)) return;
  const button = page.getByRole("button", { name: "Menu" });
  if ((await button.getAttribute("aria-expanded")) === "true") return;
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
}

/** Rows a test writes before its own server starts. */
export type Seed = (store: Store) => Promise<void>;
/**
 * Starts a server of the test's own with the given environment, on a fresh database (`seed` written first); `cwd`:
 * another copy of the site to serve (tests/support/questions-site.ts), by default this one.
 */
export type OwnServer = (env?: Record<string, string>, seed?: Seed, cwd?: string) => Promise<RunningServer>;

/**
 * The browser tests' `test`: the shared build server comes from playwright.config.ts's webServer; a test that
 * needs a server of its own (its own database, limits or failures) takes `ownServer`, which starts one with
 * the given environment (and the rows `seed` writes first) and stops every one it started when the test ends. Each starts on a copy of an empty,
 * migrated embedded database made once per worker (a copy takes milliseconds; initdb takes seconds). A test that
 * takes `smtp` gets a real SMTP server on 127.0.0.1 of its own: what it received is that test's alone.
 */
export const test = base.extend<
  {
    ownServer: OwnServer;
    smtp: TestSmtp;
  },
  { emptyDatabase: string }
>({
  emptyDatabase: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's parameters; this one needs none
    async ({}, use) => {
      await use(await makeEmptyDatabase("e2e-template-"));
    },
    // initdb takes 5–7 s alone, and several times that on a machine busy with other work: not the test's 30 s.
    { scope: "worker", timeout: 120_000 },
  ],
  // The browser on the run's clock (playwright.config.ts fixes it to a day; this worker's Date is shifted to it),
  // so a page's script reads the same day as the servers that rendered it. Time flows from there at its own pace.
  page: async ({ page }, use) => {
    await page.clock.install({ time: Date.now() });
    await use(page);
  },
  ownServer: async ({ page: _page, emptyDatabase }, use) => {
    const started: RunningServer[] = [];
    await use(async (env = {}, seed, cwd) => {
      const dataDir = copyDatabase(emptyDatabase, "e2e-server-");
      if (seed) {
        // Rows written before the server starts (it then owns the folder).
        const store = createStore(await openPgliteDb(dataDir));
        await seed(store);
        await store.close();
      }
      const server = await startServer(env, dataDir, [], cwd);
      started.push(server);
      return server;
    });
    await Promise.all(started.map((server) => server.stop()));
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's parameters; this one needs none
  smtp: async ({}, use) => {
    const smtp = await startSmtp();
    await use(smtp);
    await smtp.close();
  },
});
export { expect };
