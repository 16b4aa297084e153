/**
 * The FAQ move other suites make before they check a page (a11y.spec.ts, security.spec.ts): an item opened, once
 * the FAQ's island has wired its buttons. The FAQ's own behaviour is in faq.spec.ts.
 */
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Goes to /product#faq and opens the item `question`, waiting until it says it is open. */
export async function openFaqItem(page: Page, question: string) {
  await page.goto("/product#faq");
  const button = page.getByRole("button", { name: question });
  // The island hydrates when visible: until Headless UI has wired the button, a click does nothing.
  await expect(button).toHaveAttribute("aria-controls", /.+/);
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
}
