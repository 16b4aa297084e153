import { E2E_ADMIN_TOKEN } from "./constants";
import { ANY_VIEWPORT, expect, expectNoAxeViolations, isMobile, test } from "./fixtures";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every Join the Waitlist control is a link to /join, whose form signs up", async ({ page, request }) => {
    await page.goto("/");
    const links = page.locator("[data-waitlist-open]");
    expect(await links.count()).toBeGreaterThan(2);
    for (const href of await links.evaluateAll((all) => all.map((a) => a.getAttribute("href"))))
      expect(href).toBe("/join");

    await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
    await expect(page).toHaveURL("/join");
    const email = `nojs.${Date.now()}.${isMobile(page) ? "m" : "d"}@example.com`;
    await expect(page.getByLabel("Email (required)")).toHaveAttribute("required", "");
    await expect(page.getByLabel("Email (required)")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Name (optional)")).toHaveAttribute("maxlength", "100");
    await page.getByLabel("Name (optional)").fill("No Script");
    await page.getByLabel("Email (required)").fill(email);
    await page.getByLabel("Organization (optional)").fill("Plain HTML Inc.");
    await page.getByLabel("I accept the").check();
    await page.getByRole("button", { name: "Join the Waitlist" }).click();

    await expect(page).toHaveURL("/join/thanks");
    await expect(page.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await expect(page.getByText("growing fast")).toBeVisible();

    const csv = await (
      await request.get("/api/waitlist/export", { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })
    ).text();
    // …then the share code the database gave the row, no referrer, no referrals.
    expect(csv).toMatch(
      new RegExp(
        `No Script,${email.replaceAll(".", "\\.")},Organization: Plain HTML Inc\\.,confirmed,,,,,,,/join,Plain HTML Inc\\.,,,d32ad6715e8da973,,[0-9a-z]{10},,0\r\n`,
      ),
    );
  });

  test(
    "a form error answers with the form again, filled, the message at the top and beside its field",
    ANY_VIEWPORT,
    async ({ page }) => {
      await page.goto("/join");
      // The browser accepts an address without a domain suffix; the function's schema does not.
      await page.getByLabel("Email (required)").fill("someone@localhost");
      await page.getByLabel("I accept the").check();
      await page.getByRole("button", { name: "Join the Waitlist" }).click();
      // The form again, filled, the message at the top (focused) and beside the address.
      const summary = page.getByRole("alert");
      await expect(summary).toHaveText("Validation errorInvalid email address");
      await expect(summary).toBeFocused();
      await expect(page.getByLabel("Email (required)")).toHaveValue("someone@localhost");
      await expect(page.getByLabel("Email (required)")).toHaveAccessibleDescription("Invalid email address");
      await expect(page.getByLabel("I accept the")).toBeChecked();
      await expect(page).toHaveTitle(/^Error: Validation error · /);
      await summary.getByRole("link", { name: "Invalid email address" }).click();
      await expect(page.getByLabel("Email (required)")).toBeFocused();
    },
  );
});

// axe runs in the page: the refused /join, reached as a browser with JavaScript posts its form.
test("the refused /join, filled and marked, is axe clean", ANY_VIEWPORT, async ({ page }) => {
  await page.goto("/join");
  await page.getByLabel("Email (required)").fill("someone@localhost");
  await page.getByLabel("I accept the").check();
  await page.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(page.getByRole("alert")).toHaveText("Validation errorInvalid email address");
  await expectNoAxeViolations(page);
});

test("with JavaScript, the /join links open the dialog instead", async ({ page }) => {
  await page.goto("/");
  await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
  await expect(page.locator('[role="dialog"]')).toBeVisible();
  await expect(page).toHaveURL("/");
});
