/**
 * The tap that matters, before the island has arrived: the dialog shows at once from the page's own HTML, its form
 * is usable, the island takes it over with whatever was typed, a submit before then signs up exactly once, and an
 * island that never arrives still leaves a working form. The island's chunk is held back by the test (released
 * when it says so, or never): no clock and no sleep decide anything here.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./constants";
import { expect, expectNoAxeViolations, isMobile, openMenuIfMobile, test } from "./fixtures";

const ISLAND = /\/_astro\/WaitlistDialog\.[\w-]+\.js$/;
const early = (page: Page) => page.locator("#waitlist-early");
const islandDialog = (page: Page) => page.locator('[role="dialog"]');
const unique = (what: string) => `early.${what}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** Holds the island's chunk until `release()` (or forever, if it is never called). */
async function holdIsland(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(ISLAND, async (route) => {
    await held;
    await route.continue().catch(() => {}); // the page may have moved on meanwhile
  });
  return release;
}

async function tapJoin(page: Page) {
  await openMenuIfMobile(page);
  const scope = isMobile(page) ? page.locator("#mobile-menu") : page.getByRole("banner");
  const opener = scope.getByRole("link", { name: "Join the Waitlist" });
  await opener.click();
  return opener;
}

/**
 * Signs `email` up in the early dialog: the address, the terms accepted, Join pressed (twice at once when `double`),
 * and on to the thank-you page.
 */
async function joinEarly(page: Page, email: string, double = false) {
  await early(page).getByLabel("Email (required)").fill(email);
  await early(page).getByLabel("I accept the").check();
  const join = early(page).getByRole("button", { name: "Join the Waitlist" });
  await (double ? join.dblclick() : join.click());
  await page.waitForURL("**/join/thanks*");
}

/** How many rows the export holds for `email`. */
async function rowsFor(request: APIRequestContext, email: string): Promise<number> {
  const csv = await (
    await request.get("/api/waitlist/export", { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })
  ).text();
  return csv.split("\r\n").filter((line) => line.includes(`,${email},`)).length;
}

test("a tap before the island arrives shows the dialog at once, its form usable and accessible", async ({ page }) => {
  await holdIsland(page);
  await page.goto("/");
  await tapJoin(page);
  await expect(page).toHaveURL("/");
  await expect(early(page)).toBeVisible();
  await expect(early(page).getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
  const email = early(page).getByLabel("Email (required)");
  await expect(email).toBeFocused();
  await page.keyboard.type("typing@example.com");
  await expect(email).toHaveValue("typing@example.com");
  await expectNoAxeViolations(page);
});

test("what was typed, and where, survives the island's arrival", async ({ page }) => {
  const release = await holdIsland(page);
  await page.goto("/");
  await tapJoin(page);
  await early(page).getByLabel("Email (required)").fill("carried@example.com");
  await early(page).getByLabel("Why are you interested?").fill("To keep what I read");
  await early(page).getByLabel("I accept the").check();
  const name = early(page).getByLabel("Name");
  await name.fill("Ada Lovelace");
  await name.press("Home");
  release();
  await expect(early(page)).toBeHidden();
  const dialog = islandDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Email (required)")).toHaveValue("carried@example.com");
  await expect(dialog.getByLabel("Why are you interested?")).toHaveValue("To keep what I read");
  await expect(dialog.getByLabel("I accept the")).toBeChecked();
  await expect(dialog.getByLabel("Name")).toBeFocused();
  // The caret came along too: typing now goes before "Ada".
  await page.keyboard.type("Countess ");
  await expect(dialog.getByLabel("Name")).toHaveValue("Countess Ada Lovelace");
  await expect(page.locator("#waitlist-early input")).toHaveCount(0);
});

test("a field chosen as the island arrives keeps the focus and what is typed into it", async ({ page }) => {
  const release = await holdIsland(page);
  await page.goto("/");
  await tapJoin(page);
  // The island's hand-over puts the caret back on its next frames; hold those frames while the visitor moves on.
  await page.evaluate(() => {
    const held: FrameRequestCallback[] = [];
    const w = window as typeof window & { releaseFrames?: () => void };
    const real = w.requestAnimationFrame.bind(w);
    // Only the hand-over's frames: a callback that asks for the next frame itself (the island's own rendering
    // needs its frames to run).
    w.requestAnimationFrame = (callback) =>
      String(callback).includes("requestAnimationFrame") ? held.push(callback) : real(callback);
    w.releaseFrames = () => {
      w.requestAnimationFrame = real;
      for (const callback of held.splice(0)) real(callback);
    };
  });
  release();
  const dialog = islandDialog(page);
  await expect(dialog.getByLabel("Name")).toBeVisible();
  await dialog.getByLabel("Name").focus();
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        (window as typeof window & { releaseFrames: () => void }).releaseFrames();
        // Two frames: the hand-over waits two, so both have run when this resolves.
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
      }),
  );
  await page.keyboard.type("Ada");
  await expect(dialog.getByLabel("Name")).toHaveValue("Ada");
  await expect(dialog.getByLabel("Email (required)")).toHaveValue("");
});

test("a submit before the island arrives signs up exactly once", async ({ page, request }) => {
  const release = await holdIsland(page);
  const email = unique("before");
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/waitlist") posts.push(r.url());
  });
  await page.goto("/");
  await tapJoin(page);
  // A double press: the second sends nothing.
  await joinEarly(page, email, true);
  release();
  await expect(page.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
  expect(await rowsFor(request, email)).toBe(1);
  expect(posts).toHaveLength(1);
});

test("an island that never arrives still leaves a working form", async ({ page, request }) => {
  await page.route(ISLAND, () => {}); // never answered
  const email = unique("never");
  await page.goto("/product");
  await tapJoin(page);
  await joinEarly(page, email);
  expect(await rowsFor(request, email)).toBe(1);
});

test("Escape closes the early dialog, empties it and gives focus back to the control", async ({ page }) => {
  await holdIsland(page);
  await page.goto("/");
  const opener = await tapJoin(page);
  await early(page).getByLabel("Email (required)").fill("gone@example.com");
  await page.keyboard.press("Escape");
  await expect(early(page)).toBeHidden();
  await expect(opener).toBeFocused();
  await opener.click();
  await expect(early(page).getByLabel("Email (required)")).toHaveValue("");
});
