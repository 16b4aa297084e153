/**
 * Referrals in a real browser, the status page: where a confirmation leads (place, share link, nothing kept,
 * noindex, accessible with and without JavaScript), leaving from it, and what a wrong link gets. The tests that
 * need e-mail start a server of their own with a real SMTP server on 127.0.0.1 (referrals-support.ts). Share
 * links: referrals-share.spec.ts. Below the browser: tests/integration/referrals/referrals.test.ts.
 */
import { ANY_VIEWPORT, expect, expectNoAxeViolations, test } from "./fixtures";
import {
  contextLike,
  expectNoAxeViolationsWithoutScripts,
  linkTo,
  mailedServers,
  SHARE_LINK,
  signUp,
  signUpByRequest,
  unique,
} from "./referrals-support";

const servers = mailedServers();

test("confirming leads to the status page: place, no referrals, share link, no cookie, noindex, accessible with and without JavaScript", async ({
  page,
  browser,
  context,
  ownServer,
}) => {
  test.slow(); // two people sign up and confirm, and axe runs on the page twice
  const server = await servers.serve(ownServer);
  // Ahead of the referrer: one confirmed person, and one who never confirms (not in line).
  const first = unique("first");
  await signUpByRequest(server.url, first);
  await servers.confirmByRequest(server.url, first);
  await signUpByRequest(server.url, unique("pending"));

  const email = unique("referrer");
  await page.goto(`${server.url}/`);
  await page.locator("#contact").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  await signUp(dialog, email);
  await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();

  const { response, link } = await servers.confirmInBrowser(page, email);
  expect(response.status()).toBe(200);
  const headers = await response.allHeaders();
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["x-robots-tag"]).toBe("noindex");
  expect(headers["set-cookie"]).toBeUndefined();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");

  await expect(page.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(
    page.getByText("Thank you: your address is confirmed. We have e-mailed you the link to this page too."),
  ).toBeVisible();
  await expect(page.locator("#status-place")).toHaveText("2nd of 2 waiting");
  await expect(page.locator("#status-referrals")).toHaveText("0 confirmed referrals");
  const shareInput = page.locator("#share-link");
  await expect(shareInput).toHaveAttribute("readonly", "");
  const share = await shareInput.inputValue();
  expect(share).toMatch(SHARE_LINK);
  expect(new URL(share).origin).toBe(server.url);
  await expect(page.getByRole("link", { name: "Leave the waitlist…" })).toBeVisible();
  // The line as a picture with its words, and the header's place instead of "Join the Waitlist".
  await expect(page.locator("#status-line figcaption")).toHaveText("1 ahead of youYou0 behind you");
  await expect(page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" })).toHaveCount(0);
  // The bar's (wide screens), beside the menu and in it (phones).
  await expect(page.locator("header a", { hasText: "2nd in line" })).toHaveCount(3);
  await expect(page.getByRole("img", { name: "QR code of your share link" })).toBeVisible();
  for (const network of ["X", "LinkedIn", "WhatsApp", "Bluesky"]) {
    await expect(page.getByRole("list", { name: "Or share it on" }).getByRole("link", { name: network })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Share by e-mail" })).toHaveAttribute("href", /^mailto:\?subject=/);
  expect(await context.cookies()).toEqual([]);

  // The e-mail that keeps the link: the same page.
  const mails = await servers.mail().waitFor(email, 2);
  expect(mails[1]?.subject).toBe("Your place on the Noosphere waitlist");
  expect(linkTo(mails[1], "/waitlist/status")).toBe(link);

  // With JavaScript the copy button is there, and copies the link.
  const copy = page.getByRole("button", { name: "Copy", exact: true });
  await expect(copy).toBeVisible();
  await expectNoAxeViolations(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await copy.click();
  await expect(page.getByText("Link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(share);

  // Without JavaScript: the same page from the e-mail's link, the link selectable, no button that cannot work.
  const plain = await contextLike(browser, page, false);
  const noScript = await plain.newPage();
  const again = await noScript.goto(link);
  expect(again?.status()).toBe(200);
  expect((await again?.allHeaders())?.["set-cookie"]).toBeUndefined();
  await expect(noScript.getByRole("heading", { level: 1, name: "Your place on the Noosphere waitlist" })).toBeVisible();
  await expect(noScript.getByText("Thank you: your address is confirmed.")).toHaveCount(0);
  await expect(noScript.locator("#status-place")).toHaveText("2nd of 2 waiting");
  await expect(noScript.locator("#status-referrals")).toHaveText("0 confirmed referrals");
  await expect(noScript.locator("#share-link")).toHaveValue(share);
  await expect(noScript.locator("button[data-copy]")).toBeHidden();
  await expect(noScript.getByRole("button", { name: "Copy", exact: true })).toHaveCount(0);
  await expect(noScript.getByRole("button", { name: "Share…" })).toHaveCount(0);
  await expectNoAxeViolationsWithoutScripts(browser, noScript, link);
  expect(await plain.cookies()).toEqual([]);
  await plain.close();
});

test("Leave asks once: what goes, a destructive Leave and a Cancel back; the question deletes nothing", async ({
  page,
  ownServer,
}, testInfo) => {
  test.slow(); // a sign-up, its confirmation, four pages and axe
  const server = await servers.serve(ownServer);
  const email = unique("leaver");
  await signUpByRequest(server.url, email);
  const link = await servers.confirmByRequest(server.url, email);
  await page.goto(link);
  await page.getByRole("link", { name: "Leave the waitlist…" }).click();
  await expect(page).toHaveURL(`${link}&leave`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Leave the Noosphere waitlist?");
  await expect(page.locator("#leave-list li")).toHaveText([
    "your address and everything you sent us when you signed up",
    "your place in line (1st of 1 waiting): signing up again starts at the end",
    "your share link, and your referrals (no referrals yet)",
    "your choice about updates: we will not write to you again",
  ]);
  const leave = page.getByRole("button", { name: "Leave the waitlist" });
  // Destructive: the site's danger colour (--color-danger-700, #b42318), white text.
  expect(await leave.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(180, 35, 24)");
  await expectNoAxeViolations(page);
  await testInfo.attach(`leave-${page.viewportSize()?.width}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(link);
  await expect(page.locator("#status-place")).toHaveText("1st of 1 waiting");

  await page.getByRole("link", { name: "Leave the waitlist…" }).click();
  await page.getByRole("button", { name: "Leave the waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You've left the waitlist");
  expect((await page.goto(link))?.status()).toBe(404);
});

test(
  "a wrong, unknown or malformed status token gets one 404 that says how to get the link again",
  ANY_VIEWPORT,
  async ({ page, request }) => {
    const answers = new Set<string>();
    for (const path of [
      `/waitlist/status?token=${"A".repeat(43)}`, // well-formed, unknown
      "/waitlist/status?token=Zm9vYmFyLWJhei1xdXV4LWNvcmdlLWdyYXVsdC1nYXJw&confirmed", // well-formed, unknown
      `/waitlist/status?token=${"A".repeat(43)}&leave`, // well-formed, unknown, asking to leave
      "/waitlist/status?token=short", // malformed
      `/waitlist/status?token=${"A".repeat(42)}%3C`, // malformed
      `/waitlist/status?token=${"A".repeat(44)}`, // malformed
      "/waitlist/status", // none
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      answers.add(await response.text());
    }
    expect(answers.size).toBe(1);
    const shown = await page.goto(`/waitlist/status?token=${"A".repeat(43)}`);
    expect(shown?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This status link doesn't work");
    await expect(page.getByText("We can e-mail you the link again.")).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Send me my link" }).click();
    await expect(page).toHaveURL(/\/waitlist\/link$/);
    await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  },
);
