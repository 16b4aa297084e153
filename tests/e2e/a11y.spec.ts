import { openFaqItem } from "./faq-support";
import { expectNoAxeViolations, MOBILE_ONLY, openMenuIfMobile, PAGES, test } from "./fixtures";

test.describe("axe finds no WCAG 2.2 AA violation", () => {
  for (const path of PAGES) {
    test(`on ${path}`, async ({ page }) => {
      await page.goto(path, { waitUntil: "load" });
      await expectNoAxeViolations(page);
    });
  }
});

// The hamburger exists below 768 px only.
test("axe finds no violation with the mobile menu open", MOBILE_ONLY, async ({ page }) => {
  await page.goto("/");
  await openMenuIfMobile(page);
  await expectNoAxeViolations(page);
});

test("axe finds no violation with an FAQ item open", async ({ page }) => {
  await openFaqItem(page, "Does it work offline?");
  await expectNoAxeViolations(page);
});
