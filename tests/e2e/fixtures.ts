import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export const PAGES = [
  "/",
  "/product",
  "/terms-of-service",
  "/join",
  "/join/thanks",
  "/this-page-does-not-exist",
] as const;
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** Runs axe on the page as it is now and fails with the violations listed. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
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

export const test = base;
export { expect };
