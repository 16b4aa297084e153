/** The waitlist dialog in the browser (longer than 150 lines: one dialog, every state and message of docs/brief.md §2–§5). */
import type { Locator, Page } from "@playwright/test";
import {
  ANY_VIEWPORT,
  DESKTOP_ONLY,
  expect,
  expectNoAxeViolations,
  isMobile,
  MOBILE_ONLY,
  openMenuIfMobile,
  test,
} from "./fixtures";

const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const dialog = (page: Page) => page.locator('[role="dialog"]');
const field = (page: Page, label: string | RegExp) => dialog(page).getByLabel(label);
const submitButton = (page: Page) => dialog(page).getByRole("button", { name: /Join the Waitlist|Submitting/ });

/** Opens the dialog from the navigation (the mobile menu on small screens); returns the opener. */
async function openFromNav(page: Page): Promise<Locator> {
  await openMenuIfMobile(page);
  const scope = isMobile(page) ? page.locator("#mobile-menu") : page.getByRole("banner");
  const opener = scope.getByRole("link", { name: "Join the Waitlist" });
  await opener.click();
  await expect(dialog(page)).toBeVisible();
  return opener;
}

/**
 * Focus moves into the dialog on open: to the email field, except on touch screens, where Headless UI
 * deliberately focuses the dialog itself so the on-screen keyboard does not cover the form unasked.
 */
async function expectFocusMovedIn(page: Page) {
  if (isMobile(page)) {
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))))
      .toBe(true);
  } else {
    await expect(field(page, "Email")).toBeFocused();
  }
}

async function expectToast(page: Page, title: string, description: string) {
  const toast = page.locator('[role="alert"], [role="status"]').filter({ hasText: title });
  await expect(toast.first()).toBeVisible();
  await expect(toast.first()).toContainText(description);
}

test.describe("waitlist dialog", () => {
  test.beforeEach(async ({ page }) => {
    // No waiting for the island: it loads on intent, and the first click opens it once it has.
    await page.goto("/");
  });

  test("opens from the navigation with focus inside, at most max-w-2xl wide", async ({ page }) => {
    await openFromNav(page);
    await expect(dialog(page).getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
    await expectFocusMovedIn(page);
    await expect(field(page, "Email")).toHaveAttribute("type", "email");
    await expect(field(page, "Email")).toHaveAttribute("autocomplete", "email");
    const panel = dialog(page).locator("form").locator("..");
    expect((await panel.boundingBox())?.width ?? 0).toBeLessThanOrEqual(672);
    const terms = dialog(page).getByRole("link", { name: /Terms of Service/ });
    await expect(terms).toHaveAttribute("href", "/terms-of-service");
    await expect(terms).toHaveAttribute("target", "_blank");
  });

  test("opens from the calls to action in the page", async ({ page }) => {
    for (const section of ["#about", "#contact"]) {
      await page.locator(section).getByRole("link", { name: "Join the Waitlist" }).click();
      await expect(dialog(page)).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog(page)).toBeHidden();
    }
  });

  test("axe finds no violation with the dialog open", async ({ page }) => {
    await openFromNav(page);
    await expectNoAxeViolations(page);
  });

  test("marks the field a check failed on (aria-invalid, its message beneath) as well as toasting", async ({
    page,
  }, testInfo) => {
    await openFromNav(page);
    const email = field(page, "Email");
    await expect(email).not.toHaveAttribute("aria-invalid", /.*/);
    await submitButton(page).click();
    await expectToast(page, "Email required", "Please provide your email address.");
    // The toast leaves the dialog's close button in view and pressable, at any width.
    const toastBox = await page.locator('[role="alert"]').filter({ hasText: "Email required" }).boundingBox();
    const closeBox = await dialog(page).getByRole("button", { name: "Close" }).boundingBox();
    if (!toastBox || !closeBox) throw new Error("no toast or no close button");
    const overlaps =
      toastBox.x < closeBox.x + closeBox.width &&
      closeBox.x < toastBox.x + toastBox.width &&
      toastBox.y < closeBox.y + closeBox.height &&
      closeBox.y < toastBox.y + toastBox.height;
    expect(overlaps).toBe(false);
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Please provide your email address.");
    await expect(dialog(page).locator("#waitlist-email-error")).toHaveText("Please provide your email address.");
    await expectNoAxeViolations(page);
    await testInfo.attach(`invalid-email-${page.viewportSize()?.width}.png`, {
      body: await page.screenshot(),
      contentType: "image/png",
    });

    // Typing clears the mark; the next failure marks its own field.
    await email.fill("not-an-address");
    await expect(email).not.toHaveAttribute("aria-invalid", /.*/);
    await field(page, "I accept the").check();
    await submitButton(page).click();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Invalid email address");

    await email.fill(uniqueEmail("marked"));
    await field(page, "I accept the").uncheck();
    await submitButton(page).click();
    const terms = field(page, "I accept the");
    await expect(terms).toHaveAttribute("aria-invalid", "true");
    await expect(terms).toHaveAccessibleDescription("Please accept the Terms of Service to continue.");
    await expect(email).not.toHaveAttribute("aria-invalid", /.*/);
  });

  test("reports empty email, then unchecked terms, then each schema message at its limit + 1", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/waitlist") posts.push(request.method());
    });
    await openFromNav(page);
    await submitButton(page).click();
    await expectToast(page, "Email required", "Please provide your email address.");

    await field(page, "Email").fill(uniqueEmail("order"));
    await submitButton(page).click();
    await expectToast(page, "Terms of Service", "Please accept the Terms of Service to continue.");

    await field(page, "I accept the").check();
    const cases: Array<[string | RegExp, string, string]> = [
      ["Name", "n".repeat(101), "Name must be less than 100 characters"],
      ["Email", `${"e".repeat(244)}@example.com`, "Email must be less than 255 characters"],
      ["Email", "not-an-email", "Invalid email address"],
      ["Organization", "o".repeat(201), "Organization must be less than 200 characters"],
      [/Why are you interested/, "w".repeat(1001), "Response must be less than 1000 characters"],
      [/connect or contribute/, "c".repeat(1001), "Response must be less than 1000 characters"],
    ];
    for (const [label, value, message] of cases) {
      const input = field(page, label);
      const previous = await input.inputValue();
      await input.fill(value);
      await submitButton(page).click();
      await expectToast(page, "Validation error", message);
      await input.fill(label === "Email" ? uniqueEmail("order") : previous);
    }
    // Nothing was sent: every rejection happened in the browser, and the form is still open.
    expect(posts).toEqual([]);
    await expect(dialog(page).locator("form")).toBeVisible();
  });

  test("a sign-up goes submitting → thank-you, and closing resets the form", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/waitlist", async (route) => {
      await held;
      await route.continue();
    });
    await openFromNav(page);
    await field(page, "Name").fill("Ada Lovelace");
    await field(page, "Email").fill(uniqueEmail("success"));
    await field(page, "I accept the").check();
    await submitButton(page).click();

    await expect(submitButton(page)).toHaveText("Submitting...");
    await expect(submitButton(page)).toBeDisabled();
    release();

    await expectToast(page, "Success!", "You've been added to the waitlist.");
    await expect(dialog(page).getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await expect(dialog(page)).toContainText("growing fast");
    await expect(dialog(page)).toContainText("active development");
    await expect(dialog(page)).toContainText("early-access account is ready");
    await dialog(page).getByRole("button", { name: "Close" }).last().click();
    await expect(dialog(page)).toBeHidden();

    await openFromNav(page);
    await expect(field(page, "Name")).toHaveValue("");
    await expect(field(page, "Email")).toHaveValue("");
    await expect(field(page, "I accept the")).not.toBeChecked();
  });

  test(
    "a failed request shows the failure toast, logs the error and keeps every value",
    ANY_VIEWPORT,
    async ({ page }) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await page.route("**/api/waitlist", (route) => route.abort("connectionrefused"));
      await openFromNav(page);
      const email = uniqueEmail("network");
      await field(page, "Name").fill("Grace");
      await field(page, "Email").fill(email);
      await field(page, "Organization").fill("Navy");
      await field(page, /Why are you interested/).fill("Compilers");
      await field(page, /connect or contribute/).fill("Talks");
      await field(page, "I accept the").check();
      await submitButton(page).click();

      await expectToast(page, "Error", "Failed to submit. Please try again.");
      await expect(page.locator(".toast-destructive").first()).toBeVisible();
      await expect(submitButton(page)).toHaveText("Join the Waitlist");
      await expect(submitButton(page)).toBeEnabled();
      await expect(field(page, "Name")).toHaveValue("Grace");
      await expect(field(page, "Email")).toHaveValue(email);
      await expect(field(page, "Organization")).toHaveValue("Navy");
      await expect(field(page, /Why are you interested/)).toHaveValue("Compilers");
      await expect(field(page, /connect or contribute/)).toHaveValue("Talks");
      await expect(field(page, "I accept the")).toBeChecked();
      expect(errors.some((line) => line.includes("Waitlist sign-up failed"))).toBe(true);
    },
  );

  test("a rate-limited request shows a clear toast and keeps the values", ANY_VIEWPORT, async ({ page }) => {
    await page.route("**/api/waitlist", (route) =>
      route.fulfill({
        status: 429,
        headers: { "Retry-After": "120" },
        contentType: "application/json",
        body: JSON.stringify({ error: "Too many sign-up attempts. Please try again in 2 minutes." }),
      }),
    );
    await openFromNav(page);
    const email = uniqueEmail("limited");
    await field(page, "Email").fill(email);
    await field(page, "I accept the").check();
    await submitButton(page).click();
    await expectToast(page, "Too many attempts", "Please wait a few minutes and try again.");
    await expect(field(page, "Email")).toHaveValue(email);
  });

  test(
    "the honeypot is invisible, hidden from assistive technology and out of the tab order",
    ANY_VIEWPORT,
    async ({ page }) => {
      await openFromNav(page);
      const trap = dialog(page).locator('input[name="homepage"]');
      await expect(trap).toHaveCount(1);
      await expect(trap).not.toBeInViewport();
      await expect(trap).toHaveAttribute("tabindex", "-1");
      await expect(trap).toHaveAttribute("autocomplete", "off");
      await expect(trap.locator("xpath=ancestor::*[@aria-hidden='true']")).toHaveCount(1);
      await expect(dialog(page).getByRole("textbox", { name: /leave this field/i })).toHaveCount(0);
    },
  );

  test("Escape, the close button and the backdrop dismiss it, and focus returns to the opener", async ({ page }) => {
    const opener = await openFromNav(page);
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toBeHidden();
    await expect(opener).toBeFocused();

    await openFromNav(page);
    await field(page, "Email").fill("typed@example.com");
    await dialog(page).getByRole("button", { name: "Close" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(opener).toBeFocused();

    await openFromNav(page);
    await expect(field(page, "Email")).toHaveValue("");
    await page.mouse.click(5, (page.viewportSize()?.height ?? 800) - 5);
    await expect(dialog(page)).toBeHidden();
  });

  test("focus stays trapped inside the open dialog", ANY_VIEWPORT, async ({ page }) => {
    await openFromNav(page);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
    }
  });

  // Keyboard navigation is exercised on the desktop layout.
  test("a keyboard-only sign-up", DESKTOP_ONLY, async ({ page }) => {
    const opener = page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" });
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(field(page, "Email")).toBeFocused();
    await page.keyboard.type(uniqueEmail("keyboard"));
    await page.keyboard.press("Shift+Tab");
    await expect(field(page, "Name")).toBeFocused();
    await page.keyboard.type("Keyboard User");
    await field(page, "I accept the").focus();
    await page.keyboard.press("Space");
    await expect(field(page, "I accept the")).toBeChecked();
    await page.keyboard.press("Enter");
    await expect(dialog(page).getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await expect(dialog(page).getByRole("button", { name: "Close" }).last()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeHidden();
    await expect(opener).toBeFocused();
  });

  // The mobile menu exists below 768 px only.
  test("a sign-up from the mobile menu", MOBILE_ONLY, async ({ page }) => {
    const opener = await openFromNav(page);
    await field(page, "Email").fill(uniqueEmail("mobile"));
    await field(page, "I accept the").check();
    await submitButton(page).click();
    await expect(dialog(page).getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toBeHidden();
    await expect(opener).toBeFocused();
  });
});
