/**
 * The header's "Join the Waitlist" on the first screen (issue 54): at 375 × 812 beside the hamburger, not only in
 * its menu (which keeps its own); at 1280 the bar as it was, one button. Either opens the dialog.
 */
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, isMobile, test } from "./fixtures";

const visibleJoins = (page: Page) => page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" });

test("the header's Join the Waitlist is on the first screen, beside the menu on a phone, and opens the dialog", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  const join = visibleJoins(page);
  // One in the header's bar at either width (the menu's, hidden while it is closed, is not counted).
  await expect(join).toHaveCount(1);
  await expect(join).toBeVisible();
  const box = await join.boundingBox();
  if (!box) throw new Error("no button");
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  // On one line, at least 24 px either way.
  expect(box.height).toBeLessThanOrEqual(40);
  expect(box.width).toBeGreaterThanOrEqual(24);

  const menu = page.getByRole("button", { name: "Menu" });
  if (isMobile(page)) {
    // Beside the hamburger, which stays, and clear of the logo.
    await expect(menu).toBeVisible();
    const menuBox = await menu.boundingBox();
    const logoBox = await page.getByRole("banner").getByRole("link", { name: "Noosphere home" }).boundingBox();
    if (!menuBox || !logoBox) throw new Error("no menu or logo");
    expect(box.x + box.width).toBeLessThanOrEqual(menuBox.x);
    expect(logoBox.x + logoBox.width).toBeLessThanOrEqual(box.x);
    expect(Math.abs(box.y + box.height / 2 - (menuBox.y + menuBox.height / 2))).toBeLessThanOrEqual(1);
    // The menu keeps its own button.
    await menu.click();
    await expect(page.locator("#mobile-menu").getByRole("link", { name: "Join the Waitlist" })).toBeVisible();
    await menu.click();
    // The narrowest phones (320 px): the logo's mark (its name left to its label), the button and the menu, all on
    // the screen.
    await page.setViewportSize({ width: 320, height: 568 });
    for (const control of [join, menu]) {
      const edge = await control.evaluate((element) => element.getBoundingClientRect().right);
      expect(edge).toBeLessThanOrEqual(320);
    }
    await expect(page.getByRole("banner").getByRole("link", { name: "Noosphere home" })).toBeVisible();
    await page.setViewportSize(viewport);
  } else {
    await expect(menu).toBeHidden();
  }
  await expectNoAxeViolations(page);
  await testInfo.attach(`header-${viewport.width}.png`, { body: await page.screenshot(), contentType: "image/png" });

  await join.click();
  const dialog = page.locator('[role="dialog"]');
  await expect(dialog.getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
  await expectNoAxeViolations(page);
  await testInfo.attach(`header-dialog-${viewport.width}.png`, {
    body: await page.screenshot(),
    contentType: "image/png",
  });
});
