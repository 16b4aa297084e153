/**
 * Visits counted without cookies (issue 51), in a real browser against the built site and `npm run serve`'s local
 * Netlify: three visitors (one plain, one by a share link, one by a newsletter's link, who signs up), a bot, a
 * browser sending Global Privacy Control and a team member signed in to the console; the console's funnel read from
 * visitors. No cookie and nothing in local or session storage on any public page; every byte of the database's
 * folder holds none of the user agents, the addresses' users or the referring page's address.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./constants";
import { DESKTOP_ONLY, expect, test } from "./fixtures";

const AGENTS = {
  plain: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 VisitA",
  shared:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 VisitB",
  newsletter:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 VisitC",
  bot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};
const OTHER_SITE = "http://news.example.com/issues/42?private=yes";

/** Opens `path` and waits until its view has been reported (the beacon's answer), or `counted: false`: its load. */
async function visit(page: Page, path: string) {
  const reported = page.waitForResponse((r) => r.url().endsWith("/api/visit"));
  await page.goto(path);
  expect((await reported).status()).toBe(204);
  expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  expect(await page.context().cookies()).toEqual([]);
}

const visitor = (browser: Browser, userAgent: string, extraHTTPHeaders: Record<string, string> = {}) =>
  browser.newContext({ userAgent, extraHTTPHeaders });

/** Every file of the database's folder, whole (heap, WAL, everything), but Postgres's own configuration. */
function databaseBytes(dir: string): string {
  let all = "";
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) all += databaseBytes(path);
    else if (!name.endsWith(".conf")) all += readFileSync(path).toString("latin1");
  }
  return all;
}

/** The console's overview as words, signed in with the token in `page`. */
async function overview(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/admin`);
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText keeps the table cells apart
  return (await page.locator("main").innerText()).replace(/\s+/g, " ");
}

test(
  "counts three visitors, not a bot, a GPC browser or the team; the funnel starts at them",
  DESKTOP_ONLY,
  async ({ browser, request, ownServer }) => {
    // A server of its own: the shared one counts every other test's visits and sign-ups too.
    const server = await ownServer({ WAITLIST_ADMIN_TOKEN: E2E_ADMIN_TOKEN });
    const baseURL = server.url;
    // The team: signed in to the console, then looking at the home page: not counted.
    const team = await browser.newContext();
    const admin = await team.newPage();
    await admin.goto(`${baseURL}/admin`);
    await admin.getByLabel("Admin token").fill(E2E_ADMIN_TOKEN);
    await admin.getByRole("button", { name: "Sign in" }).click();
    await expect(admin.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    const teamView = admin.waitForResponse((r) => r.url().endsWith("/api/visit"));
    await admin.goto(`${baseURL}/`);
    expect((await teamView).status()).toBe(204);

    // A bot and a browser sending Global Privacy Control: answered alike, not counted.
    for (const context of [
      await visitor(browser, AGENTS.bot),
      await visitor(browser, AGENTS.newsletter, { "Sec-GPC": "1" }),
    ]) {
      await visit(await context.newPage(), `${baseURL}/?utm_source=ignored`);
      await context.close();
    }
    expect((await request.head(`${baseURL}/api/visit`)).status()).toBe(204);

    // Visitor A: the home page, then the product page and the terms by their links (one visitor, three views).
    const a = await visitor(browser, AGENTS.plain);
    const pageA = await a.newPage();
    await visit(pageA, `${baseURL}/`);
    const product = pageA.waitForResponse((r) => r.url().endsWith("/api/visit"));
    await pageA.getByRole("navigation").getByRole("link", { name: "Product" }).first().click();
    await product;
    // Visitor B, by a friend's share link.
    const b = await visitor(browser, AGENTS.shared);
    await visit(await b.newPage(), `${baseURL}/?via=abcdefghjk`);
    // Visitor C, by a newsletter's link from another site, signs up in the dialog.
    const c = await visitor(browser, AGENTS.newsletter);
    const pageC = await c.newPage();
    await pageC.route(
      (url) => url.origin === new URL(OTHER_SITE).origin,
      (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><title>News</title><a href="${baseURL}/?utm_source=newsletter">Noosphere</a>`,
        }),
    );
    await pageC.goto(OTHER_SITE);
    const landed = pageC.waitForResponse((r) => r.url().endsWith("/api/visit"));
    await pageC.getByRole("link", { name: "Noosphere" }).click();
    await landed;
    await pageC.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
    const dialog = pageC.locator('[role="dialog"]');
    await dialog.getByLabel("Email (required)").fill(`visits.${Date.now()}@example.com`);
    await dialog.getByLabel("I accept the").check();
    await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
    await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    expect(await pageC.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    expect(await c.cookies()).toEqual([]);

    const words = await overview(admin, baseURL);
    expect(words).toContain("Today 3 visitors · 1 signed up (33%) Last 30 days 3 visitors · 1 signed up (33%)");
    expect(words).toContain("Visitors: 3 visitors in the range; 1 person signed up, 33% of them.");
    const bySource = words.slice(words.indexOf("By source"), words.indexOf("By medium"));
    expect(bySource).toContain("newsletter 1 1 100%");
    expect(bySource).toContain("None recorded 2 0 0%");
    const byShare = words.slice(words.indexOf("By share link"));
    expect(byShare).toContain("Came by a share link 1 0 0%");
    const byReferrer = words.slice(words.indexOf("By referring site"), words.indexOf("By share link"));
    expect(byReferrer).toContain("news.example.com 1 1 100%");

    const dump = databaseBytes(server.dataDir);
    expect(dump).toContain("news.example.com");
    for (const secret of [...Object.values(AGENTS), "VisitA", "Googlebot", OTHER_SITE, "issues/42", "private=yes"]) {
      expect(dump).not.toContain(secret);
    }
    for (const context of [team, a, b, c]) await context.close();
  },
);
