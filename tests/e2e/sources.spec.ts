/**
 * Where sign-ups come from, as the team reads it in the export: one visit, arriving by another site's link, is
 * recorded alike whichever way the visitor signs up (the island, the early dialog before it, /join's form). The
 * other site is a page the test serves itself (nothing leaves the machine), so the browser sends its own Referer,
 * by its own policy: the other site's origin only. Nothing is kept in the browser for it.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./constants";
import { ANY_VIEWPORT, expect, test } from "./fixtures";

const OTHER_SITE = "http://news.example.com/issues/42?private=yes";
const CAMPAIGN = "utm_source=newsletter&utm_medium=email&utm_campaign=launch";
const ISLAND = /\/_astro\/WaitlistDialog\.[\w-]+\.js$/;

const exportCsv = async (request: APIRequestContext) =>
  (await request.get("/api/waitlist/export", { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })).text();
const unique = (path: string) => `sources.${path}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** Opens `path` by its link on another site's page, as a visitor following it would. */
async function arriveFrom(page: Page, baseURL: string | undefined, path: string) {
  const target = new URL(path, baseURL).href;
  await page.route(
    (url) => url.origin === new URL(OTHER_SITE).origin,
    (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>News</title><p><a href="${target}">Read about Noosphere</a></p>`,
      }),
  );
  await page.goto(OTHER_SITE);
  await page.getByRole("link", { name: "Read about Noosphere" }).click();
  await page.waitForURL((url) => url.href === target);
}

/** Fills a sign-up form's required fields (the island's, the early dialog's or /join's) and sends it. */
async function signUp(form: ReturnType<Page["locator"]>, email: string) {
  await form.getByLabel("Email (required)").fill(email);
  await form.getByLabel("I accept the").check();
  await form.getByRole("button", { name: "Join the Waitlist" }).click();
}

/**
 * The export's line for `email` with the five columns of where it came from, then the consent record and the
 * referral columns (a share code the database made, nobody's referral, none counted).
 */
const line = (email: string, sources: string) =>
  new RegExp(
    `,${email.replaceAll(".", "\\.")},,confirmed,,,${sources.replaceAll(".", "\\.")},,,,d32ad6715e8da973,,[0-9a-z]{10},,0\r\n`,
  );

test.describe("one visit from another site, recorded alike on every path", () => {
  test("the island", ANY_VIEWPORT, async ({ page, request, baseURL }) => {
    await arriveFrom(page, baseURL, `/product?${CAMPAIGN}`);
    await page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
    const dialog = page.locator('[role="dialog"]');
    const email = unique("island");
    await signUp(dialog, email);
    await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();

    // The referring site's host only: no path or query of its page.
    expect(await exportCsv(request)).toMatch(line(email, "newsletter,email,launch,news.example.com,/product"));
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  });

  test("the early dialog, sent before the island arrived", ANY_VIEWPORT, async ({ page, request, baseURL }) => {
    await page.route(ISLAND, () => {}); // never answered: the early dialog's own form is what is sent
    await arriveFrom(page, baseURL, `/product?${CAMPAIGN}`);
    await page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
    const email = unique("early");
    await signUp(page.locator("#waitlist-early"), email);
    await page.waitForURL("**/join/thanks");

    expect(await exportCsv(request)).toMatch(line(email, "newsletter,email,launch,news.example.com,/product"));
    expect(await page.context().cookies()).toEqual([]);
  });

  test("/join's form, with JavaScript", ANY_VIEWPORT, async ({ page, request, baseURL }) => {
    await arriveFrom(page, baseURL, `/join?${CAMPAIGN}`);
    const email = unique("join");
    await signUp(page.getByRole("main"), email);
    await page.waitForURL("**/join/thanks");

    expect(await exportCsv(request)).toMatch(line(email, "newsletter,email,launch,news.example.com,/join"));
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("/join's form", ANY_VIEWPORT, async ({ page, request, baseURL }) => {
      await arriveFrom(page, baseURL, `/join?${CAMPAIGN}`);
      const email = unique("nojs");
      await signUp(page.getByRole("main"), email);
      await expect(page).toHaveURL("/join/thanks");

      // Nothing of ours ran in the browser: the function that answered GET /join read the Referer and put the
      // other site's origin in the form (src/server/signup/join-page.ts).
      expect(await exportCsv(request)).toMatch(line(email, "newsletter,email,launch,news.example.com,/join"));
      expect(await page.context().cookies()).toEqual([]);
    });
  });
});
