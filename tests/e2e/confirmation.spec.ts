/**
 * Double opt-in in a real browser: a server of its own with SMTP_URL pointing at a real SMTP server on
 * 127.0.0.1 that this test starts; the e-mail's links are opened as a person opens them.
 */
import { type CapturedMail, startSmtp, type TestSmtp } from "../support/smtp";
import { DESKTOP_ONLY, expect, expectNoAxeViolations, test } from "./fixtures";

const ADMIN = "confirm-e2e-token-0123456789abcdef0123456789";
let smtp: TestSmtp;

test.beforeAll(async () => {
  smtp = await startSmtp();
});
test.afterAll(async () => {
  await smtp?.close();
});

const mailEnv = () => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
  WAITLIST_ADMIN_TOKEN: ADMIN,
});
const linkTo = (mail: CapturedMail | undefined, path: string) =>
  mail?.links.find((href) => new URL(href).pathname === path) ?? "";
async function exported(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/waitlist/export`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  return res.text();
}

test(
  "sign up in the dialog → e-mail → the link's page → its button confirms → the export says confirmed",
  DESKTOP_ONLY,
  async ({ page, ownServer }) => {
    const server = await ownServer(mailEnv());
    await page.goto(`${server.url}/`);
    await page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
    const dialog = page.locator('[role="dialog"]');
    await dialog.getByLabel("Email (required)").fill("ada@example.com");
    await dialog.getByLabel("I accept the").check();
    await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
    await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await expect(dialog.getByText("We've sent a confirmation link to your e-mail address.")).toBeVisible();
    await expect(page.getByText("You've been added to the waitlist.")).toBeVisible();
    expect(await exported(server.url)).toMatch(/,ada@example\.com,,pending,/);

    const [mail] = await smtp.waitFor("ada@example.com");
    const confirm = linkTo(mail, "/waitlist/confirm");
    expect(new URL(confirm).origin).toBe(server.url);

    // A mail scanner fetching the link changes nothing: only the page's button does.
    expect((await page.request.get(confirm)).status()).toBe(200);
    expect(await exported(server.url)).toMatch(/,ada@example\.com,,pending,/);

    const response = await page.goto(confirm);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await expect(page.getByRole("heading", { level: 1, name: "Confirm your place" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Confirm my place" }).click();
    // The confirmation leads to the person's own status page (tests/e2e/referrals.spec.ts reads it whole).
    await expect(page).toHaveURL(new RegExp(`^${server.url}/waitlist/status\\?token=[A-Za-z0-9_-]{43}&confirmed$`));
    await expect(page.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await exported(server.url)).toMatch(/,ada@example\.com,,confirmed,/);

    // The same link again: a clear page, not an error.
    await page.goto(confirm);
    await page.getByRole("button", { name: "Confirm my place" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Already confirmed" })).toBeVisible();
  },
);

test(
  "without JavaScript: /join → /join/thanks with the confirmation line; removal by address → link → gone",
  DESKTOP_ONLY,
  async ({ browser, ownServer }) => {
    const server = await ownServer(mailEnv());
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/join`);
    await page.getByLabel("Email (required)").fill("grace@example.com");
    await page.getByLabel("I accept the").check();
    await page.getByRole("button", { name: "Join the Waitlist" }).click();
    await expect(page).toHaveURL(`${server.url}/join/thanks#confirmation-sent`);
    await expect(page.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    await expect(page.getByText("We've sent a confirmation link to your e-mail address.")).toBeVisible();
    await smtp.waitFor("grace@example.com");

    // The footer leads to the removal request, which answers the same for a listed and an unlisted address.
    await page.getByRole("contentinfo").getByRole("link", { name: "Leave the waitlist" }).click();
    await expect(page).toHaveURL(`${server.url}/waitlist/remove`);
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Send me a removal link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
    const unlistedPage = await page.content();
    await page.goto(`${server.url}/waitlist/remove`);
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByRole("button", { name: "Send me a removal link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
    expect(await page.content()).toBe(unlistedPage);

    const mails = await smtp.waitFor("grace@example.com", 2);
    await page.goto(linkTo(mails[1], "/waitlist/leave"));
    await expect(page.getByRole("heading", { level: 1, name: "Leave the waitlist" })).toBeVisible();
    // Asked once: a destructive button in the danger colour, and a Cancel home.
    const leave = page.getByRole("button", { name: "Leave the waitlist" });
    expect(await leave.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(180, 35, 24)");
    await expect(page.getByRole("main").getByRole("link", { name: "Cancel" })).toHaveAttribute("href", "/");
    // axe needs JavaScript, which this context has off: the same page (a GET changes nothing) in a page with it.
    const checked = await browser.newPage();
    await checked.goto(page.url());
    await expectNoAxeViolations(checked);
    await checked.close();
    await leave.click();
    await expect(page.getByRole("heading", { level: 1, name: "You've left the waitlist" })).toBeVisible();
    expect(await exported(server.url)).not.toContain("grace@example.com");
    expect(smtp.messages.some((m) => m.to === "nobody@example.com")).toBe(false);
    await context.close();
  },
);

test("with mail off, /join/thanks shows no confirmation line", async ({ page }) => {
  await page.goto("/join/thanks");
  await expect(page.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
  await expect(page.getByText("We've sent a confirmation link")).toBeHidden();
});
