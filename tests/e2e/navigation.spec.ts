import { expect, isMobile, MOBILE_ONLY, openMenuIfMobile, test } from "./fixtures";

const menu = (page: import("@playwright/test").Page) =>
  isMobile(page) ? page.locator("#mobile-menu") : page.locator("header nav");

test("the navigation links land where they should", async ({ page }) => {
  await page.goto("/terms-of-service");
  await openMenuIfMobile(page);
  await menu(page).getByRole("link", { name: "Product" }).click();
  await expect(page).toHaveURL("/product");

  await openMenuIfMobile(page);
  await menu(page).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL("/#about");
  await expect(page.locator("#about")).toBeInViewport();

  await openMenuIfMobile(page);
  await menu(page).getByRole("link", { name: "Contact" }).click();
  await expect(page).toHaveURL("/#contact");
  await expect(page.locator("#contact")).toBeInViewport();

  await page.goto("/product");
  await page.getByRole("banner").getByRole("link", { name: "Noosphere home" }).click();
  await expect(page).toHaveURL("/");
});

test("the hamburger shows only on small screens", async ({ page }) => {
  await page.goto("/");
  const button = page.getByRole("button", { name: "Menu" });
  if (isMobile(page)) {
    await expect(button).toBeVisible();
    await expect(page.locator("header nav").getByRole("link", { name: "Product" })).toBeHidden();
  } else {
    await expect(button).toBeHidden();
    await expect(page.locator("header nav").getByRole("link", { name: "Product" })).toBeVisible();
  }
});

// The hamburger exists below 768 px only.
test.describe("mobile menu", MOBILE_ONLY, () => {
  test("opens and closes on click", async ({ page }) => {
    await page.goto("/");
    const button = page.getByRole("button", { name: "Menu" });
    await expect(button).toHaveAttribute("aria-controls", "mobile-menu");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator("#mobile-menu").getByRole("link", { name: "Product" })).toBeVisible();
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator("#mobile-menu")).toBeHidden();
  });

  test("Escape closes it and returns focus to the button", async ({ page }) => {
    await page.goto("/");
    const button = page.getByRole("button", { name: "Menu" });
    await button.click();
    await expect(page.locator("#mobile-menu")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.locator("#mobile-menu")).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();
  });

  test("works with the keyboard alone", async ({ page }) => {
    await page.goto("/");
    const button = page.getByRole("button", { name: "Menu" });
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(page.locator("#mobile-menu").getByRole("link", { name: "About" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.locator("#mobile-menu").getByRole("link", { name: "Product" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/product");
    const again = page.getByRole("button", { name: "Menu" });
    await again.focus();
    await page.keyboard.press("Space");
    await expect(again).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Space");
    await expect(again).toHaveAttribute("aria-expanded", "false");
  });
});
