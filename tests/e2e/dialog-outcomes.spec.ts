/**
 * The waitlist dialog's outcomes on screen, at 375 and 1280 px (issue 54): a new outcome takes the place of the
 * last one's toast (a refused first try's error is gone once the second try succeeds), and the success toast
 * covers neither the thank-you view's check mark nor its heading. With e-mail on, so the view is its tallest (the
 * confirmation line) and its words agree with the toast's: they were added, and the link confirms their place.
 */
import type { Locator } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

type Box = NonNullable<Awaited<ReturnType<Locator["boundingBox"]>>>;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box`);
  return box;
}

test("a refused try's toast gives way to the success's, which covers neither the check mark nor the heading", async ({
  page,
  ownServer,
  smtp,
}, testInfo) => {
  test.slow(); // a server of its own, with e-mail on
  const server = await ownServer({ SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" });
  const width = page.viewportSize()?.width ?? 0;
  const shot = async (name: string) =>
    testInfo.attach(`${name}-${width}.png`, { body: await page.screenshot(), contentType: "image/png" });
  await page.goto(`${server.url}/`);
  await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  const errors = page.locator(".toast-destructive");
  const successes = page.locator(".toast-success");

  // Refused in the browser: one error toast.
  await dialog.getByLabel("Email (required)").fill("not-an-address");
  await dialog.getByLabel("I accept the").check();
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(errors).toHaveCount(1);
  await expect(errors).toHaveText("Validation errorInvalid email address");
  await expectNoAxeViolations(page);
  await shot("refused");

  // The second try succeeds: the error is gone at once, the success alone remains.
  await dialog.getByLabel("Email (required)").fill("toasts@example.com");
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  const heading = dialog.getByRole("heading", { name: "Thank you for signing up!" });
  await expect(heading).toBeVisible();
  await expect(successes).toHaveCount(1);
  await expect(successes).toHaveText("Success!You've been added to the waitlist.");
  await expect(errors).toHaveCount(0);
  await expect(page.locator('[role="alert"]')).toHaveCount(0);
  await expect(dialog.getByTestId("waitlist-confirmation")).toHaveText(
    "You're on the list: we've sent a confirmation link to your e-mail address. Please open it to confirm your place.",
  );

  // Nothing covers the check mark or the heading, and the toast is whole on the screen.
  const toast = await boxOf(successes);
  const check = await boxOf(dialog.getByTestId("waitlist-thanks").locator("> div[aria-hidden]"));
  expect(overlap(toast, check), "the toast covers the check mark").toBe(false);
  expect(overlap(toast, await boxOf(heading)), "the toast covers the heading").toBe(false);
  expect(overlap(toast, await boxOf(dialog.getByTestId("waitlist-confirmation"))), "the toast covers the line").toBe(
    false,
  );
  await expect(successes).toBeInViewport({ ratio: 1 });
  await expectNoAxeViolations(page);
  await shot("thank-you");
});
