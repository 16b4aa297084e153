/**
 * The dialog's island loads on intent (client:intent), not before: no React until a visitor reaches for a
 * "Join the Waitlist" control, and then no click is ever lost or dead.
 */
import type { Page, Request } from "@playwright/test";
import { DESKTOP_ONLY, expect, isMobile, MOBILE_ONLY, openMenuIfMobile, test } from "./fixtures";

const ISLAND = /\/_astro\/WaitlistDialog\.[\w-]+\.js$/;
const dialog = (page: Page) => page.locator('[role="dialog"]');
const joinLink = async (page: Page) => {
  await openMenuIfMobile(page);
  const scope = isMobile(page) ? page.locator("#mobile-menu") : page.getByRole("banner");
  return scope.getByRole("link", { name: "Join the Waitlist" });
};

/** Records the scripts the page requests. */
function scriptRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    if (request.resourceType() === "script") seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

/** Time from the click on a Join control to the dialog in the DOM, measured in the page. */
async function clickToOpen(page: Page, click: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __clickAt?: number; __openAt?: Promise<number> };
    document.addEventListener("click", () => (w.__clickAt ??= performance.now()), { capture: true, once: true });
    w.__openAt = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector('[role="dialog"]')) return;
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
  });
  await click();
  await expect(dialog(page)).toBeVisible();
  return page.evaluate(async () => {
    const w = window as unknown as { __clickAt: number; __openAt: Promise<number> };
    return (await w.__openAt) - w.__clickAt;
  });
}

// Hover is a desktop gesture; the tap is tested below.
test("no island script loads before intent, and hovering a Join control loads it", DESKTOP_ONLY, async ({ page }) => {
  const scripts = scriptRequests(page);
  await page.goto("/");
  await page.mouse.move(5, 400); // the pointer somewhere on the page, away from any Join control
  // Once the page is idle (an idle callback can be starved while the renderer stays busy, as it was once in CI
  // for 30 s, so at most 2 s), still no island.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
  expect(scripts.filter((path) => ISLAND.test(path))).toEqual([]);
  const islandRequested = page.waitForRequest(ISLAND);
  await (await joinLink(page)).hover();
  await islandRequested;
  await expect(dialog(page)).toHaveCount(0); // hover loads, it does not open
});

test("after a hover of 300 ms, a click opens the dialog within 100 ms", DESKTOP_ONLY, async ({ page }) => {
  // A time on a shared 2-core machine: the best of up to three fresh page loads is compared, so a moment of
  // contention from the other worker does not fail it, while a dialog that cannot open in time fails all three.
  const times: number[] = [];
  while (times.length < 3 && !times.some((time) => time <= 100)) {
    await page.goto("/");
    const link = await joinLink(page);
    await link.hover();
    // Hydrated: the island has connected to the page's click bridge (at most a moment after 300 ms here).
    await page.waitForFunction(() => Boolean(window.__waitlist?.open));
    times.push(await clickToOpen(page, () => link.click()));
  }
  const best = Math.min(...times);
  test.info().annotations.push({
    type: "click-to-open after hover (ms)",
    description: times.map((t) => t.toFixed(1)).join(", "),
  });
  expect(best).toBeLessThanOrEqual(100);
});

test("a tap with no hover opens the dialog", MOBILE_ONLY, async ({ page }) => {
  await page.goto("/");
  const link = await joinLink(page);
  const elapsed = await clickToOpen(page, () => link.tap());
  test.info().annotations.push({ type: "tap-to-open, cold (ms)", description: elapsed.toFixed(1) });
  await expect(page).toHaveURL("/");
});

test("Enter on a Join control reached with Tab opens the dialog", async ({ page }) => {
  await page.goto("/");
  const link = await joinLink(page);
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press("Tab");
    if (await link.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog(page)).toBeVisible();
  await expect(page).toHaveURL("/");
});
