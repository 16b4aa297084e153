/**
 * Where sign-ups come from, as the team reads it in the export: the campaign of the page signed up on, the site that
 * sent the visitor there, and the page, from the dialog and from /join without JavaScript. Nothing is kept in the
 * browser for it.
 */
import { E2E_ADMIN_TOKEN } from "./constants";
import { ANY_VIEWPORT, expect, test } from "./fixtures";

const exportCsv = async (request: import("@playwright/test").APIRequestContext) =>
  (await request.get("/api/waitlist/export", { headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` } })).text();

test("the dialog records the campaign, the referring site and the page", ANY_VIEWPORT, async ({ page, request }) => {
  await page.goto("/product?utm_source=newsletter&utm_medium=email&utm_campaign=launch", {
    referer: "https://news.example.com/issues/42?private=yes",
  });
  await page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  const email = `sources.dialog.${Date.now()}@example.com`;
  await dialog.getByLabel("Email (required)").fill(email);
  await dialog.getByLabel("I accept the").check();
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();

  // The host only: no path or query of the referring page.
  expect(await exportCsv(request)).toContain(
    `,${email},,confirmed,,,newsletter,email,launch,news.example.com,/product,,,,2d81b8fd62c70c2e,\r\n`,
  );
  expect(await page.context().cookies()).toEqual([]);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/join?utm_source=… records the source and the page", ANY_VIEWPORT, async ({ page, request }) => {
    await page.goto("/join?utm_source=newsletter&utm_campaign=spring");
    const email = `sources.nojs.${Date.now()}@example.com`;
    await page.getByLabel("Email (required)").fill(email);
    await page.getByLabel("I accept the").check();
    await page.getByRole("button", { name: "Join the Waitlist" }).click();
    await expect(page).toHaveURL("/join/thanks");
    expect(await exportCsv(request)).toContain(
      `,${email},,confirmed,,,newsletter,,spring,,/join,,,,2d81b8fd62c70c2e,\r\n`,
    );
  });
});
