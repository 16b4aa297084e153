import type { Page } from "@playwright/test";
import { ANY_VIEWPORT, expect, test } from "./fixtures";

const question = (page: Page, name: string) => page.getByRole("button", { name });
const FIRST = "What exactly is this platform?";
const SECOND = "Who is it for?";

async function gotoFaq(page: Page) {
  await page.goto("/product#faq");
  // The island hydrates when visible; wait until Headless UI has wired the buttons.
  await expect(question(page, FIRST)).toHaveAttribute("aria-controls", /.+/);
  // The FAQ's own island (the dialog's waits for intent and stays unhydrated).
  await expect(page.locator("astro-island[ssr]:has([data-faq-item])")).toHaveCount(0);
}

test("every item starts closed and points at its panel", ANY_VIEWPORT, async ({ page }) => {
  await gotoFaq(page);
  const buttons = page.locator("[data-faq-item] button");
  await expect(buttons).toHaveCount(10);
  for (const button of await buttons.all()) {
    await expect(button).toHaveAttribute("aria-expanded", "false");
    const panelId = await button.getAttribute("aria-controls");
    await expect(page.locator(`[id="${panelId}"]`)).toBeHidden();
  }
});

test("opening one item closes the other, and the open one collapses on click", async ({ page }) => {
  await gotoFaq(page);
  const first = question(page, FIRST);
  const second = question(page, SECOND);

  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByText("It is a knowledge platform built around")).toBeVisible();

  await second.click();
  await expect(second).toHaveAttribute("aria-expanded", "true");
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByText("It is a knowledge platform built around")).toBeHidden();
  await expect(page.getByText("Anyone who learns by reading")).toBeVisible();
  await expect(page.locator('[data-faq-item] button[aria-expanded="true"]')).toHaveCount(1);

  await second.click();
  await expect(second).toHaveAttribute("aria-expanded", "false");
  await expect(page.locator('[data-faq-item] button[aria-expanded="true"]')).toHaveCount(0);
});

test("works with the keyboard: Tab, Enter and Space", async ({ page }) => {
  await gotoFaq(page);
  const first = question(page, FIRST);
  const second = question(page, SECOND);
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(first).toBeFocused();

  // Tab passes through the open answer (no focusable content) to the next question.
  await page.keyboard.press("Tab");
  await expect(second).toBeFocused();
  await page.keyboard.press("Space");
  await expect(second).toHaveAttribute("aria-expanded", "true");
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(second).toBeFocused();

  await page.keyboard.press("Space");
  await expect(second).toHaveAttribute("aria-expanded", "false");
});
