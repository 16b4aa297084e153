/**
 * Updates as the people waiting live them, in a real browser at both sizes, each test against a server of its own
 * and a real SMTP server on 127.0.0.1: a confirmed person asks for updates on their status page (with and without
 * JavaScript) and stops them there; a person stops updates by the e-mail's link (its page changes nothing until its
 * button is pressed), and a mail provider's one-click POST stops another. Axe on every page of it. The team's side:
 * updates-console.spec.ts; below the browser: tests/integration/updates/updates.test.ts.
 */

import { expect } from "./fixtures";
import { contextLike, linkTo, signUpByRequest } from "./referrals-support";
import {
  BODY,
  CHOSEN_URL,
  confirmInBrowser,
  expectAccessible,
  expectChoice,
  expectNoAxeViolationsWithoutScripts,
  keepServerLog,
  pastUpdates,
  SUBJECT,
  sendFromConsole,
  signInToUpdates,
  test,
  to,
} from "./updates-support";

test.afterEach(keepServerLog);

test("a confirmed person asks for updates on their status page, and can stop them there, with or without JavaScript", async ({
  page,
  browser,
  smtp,
  mailedServer: server,
}) => {
  // With JavaScript: confirming leads to the page, which offers updates without assuming a yes.
  const email = "with-scripts@example.com";
  await signUpByRequest(server.url, email);
  const link = await confirmInBrowser(page, smtp, email);
  await expectChoice(page, "You have not asked for these updates.", "Send me updates");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send me updates" }).click();
  await expect(page).toHaveURL(CHOSEN_URL);
  expect(page.url()).toBe(`${link}#updates`);
  await expectChoice(page, "You get these updates.", "Stop these updates");
  await expectAccessible(page);
  // The choice is kept: the e-mailed link's page says it too.
  await page.goto(link);
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  await page.getByRole("button", { name: "Stop these updates" }).click();
  await expect(page).toHaveURL(CHOSEN_URL);
  await expectChoice(page, "You have stopped these updates.", "Send me updates");
  await expectAccessible(page);

  // Without JavaScript: the same form works, and the page is accessible as such a browser shows it.
  const plain = await contextLike(browser, page, false);
  const noScript = await plain.newPage();
  const other = "without-scripts@example.com";
  await signUpByRequest(server.url, other);
  const otherLink = await confirmInBrowser(noScript, smtp, other);
  await expectChoice(noScript, "You have not asked for these updates.", "Send me updates");
  await noScript.getByRole("button", { name: "Send me updates" }).click();
  await expect(noScript).toHaveURL(CHOSEN_URL);
  expect(noScript.url()).toBe(`${otherLink}#updates`);
  await expectChoice(noScript, "You get these updates.", "Stop these updates");
  await noScript.goto(otherLink);
  await expect(noScript.locator("#updates-choice")).toHaveText("You get these updates.");
  await expectNoAxeViolationsWithoutScripts(browser, noScript, otherLink);
  await plain.close();

  // Choosing sent no e-mail: each person has their confirmation and their status link, nothing more.
  await Promise.all([smtp.waitFor(email, 2), smtp.waitFor(other, 2)]);
  expect(to(smtp)).toEqual([email, email, other, other]);
});

test("an update's link opens a page that changes nothing until its button stops the updates; a provider's one-click POST stops them too", async ({
  page,
  browser,
  smtp,
  mailedServer: server,
}) => {
  // Two people confirm and say yes; one confirms and does not.
  const people = { reader: "reader@example.com", provider: "provider@example.com", quiet: "quiet@example.com" };
  const links: Record<string, string> = {};
  for (const [who, email] of Object.entries(people)) {
    await signUpByRequest(server.url, email);
    links[who] = await confirmInBrowser(page, smtp, email);
    if (who === "quiet") continue;
    await page.getByRole("button", { name: "Send me updates" }).click();
    await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  }

  // An admin, in a browser of their own, sends an update.
  const adminContext = await contextLike(browser, page, true);
  const admin = await adminContext.newPage();
  await signInToUpdates(admin, smtp, server.url);
  await sendFromConsole(admin, SUBJECT, BODY, "2 people");
  // Each of the two has their confirmation, their status link and the update; the quiet one no update.
  await Promise.all([smtp.waitFor(people.reader, 3), smtp.waitFor(people.provider, 3), smtp.waitFor(people.quiet, 2)]);
  const updates = smtp.messages.filter((m) => m.subject === SUBJECT);
  expect(updates.map((m) => m.to).sort()).toEqual([people.provider, people.reader]);

  // The link opens a page with one button; opening it (a person, or a link scanner) changes nothing.
  const update = updates.find((m) => m.to === people.reader);
  const unsubscribe = linkTo(update, "/waitlist/unsubscribe");
  expect(unsubscribe).toMatch(/^http:\/\/[^/]+\/waitlist\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
  const shown = await page.goto(unsubscribe);
  expect(shown?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Stop these updates" })).toBeVisible();
  await expect(
    page.getByText(
      "One click and we stop sending you updates. You stay on the waitlist, and we will still write when your early access is ready.",
    ),
  ).toBeVisible();
  // Leaving uses the link in hand, not another e-mail.
  await expect(page.getByRole("link", { name: "leave the waitlist altogether" })).toHaveAttribute(
    "href",
    `${new URL(unsubscribe).pathname}${new URL(unsubscribe).search}&leave`,
  );
  await expectAccessible(page);
  await page.reload(); // opened twice, as a link scanner and then the person might
  await page.goto(links["reader"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");

  // Its button stops them.
  await page.goto(unsubscribe);
  const answer = page.waitForResponse((r) => r.url() === unsubscribe && r.request().method() === "POST");
  await page.getByRole("button", { name: "Stop these updates" }).click();
  expect((await answer).status()).toBe(303);
  // Back on the page, which knows she has stopped and offers them again.
  await expect(page).toHaveURL(unsubscribe);
  await expect(page.getByRole("heading", { level: 1, name: "You have stopped these updates" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop these updates" })).toHaveCount(0);
  await expectAccessible(page);
  await page.goto(links["reader"] ?? "");
  await expectChoice(page, "You have stopped these updates.", "Send me updates");
  // "Send me updates again", from the same link: her choice is yes again; then she stops once more.
  await page.goto(unsubscribe);
  await page.getByRole("button", { name: "Send me updates again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You'll get updates again" })).toBeVisible();
  await page.goto(links["reader"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You get these updates.");
  await page.goto(unsubscribe);
  await page.getByRole("button", { name: "Stop these updates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You have stopped these updates" })).toBeVisible();

  // A mail provider's one-click POST (RFC 8058): the form body alone, no cookie, no Origin, no Referer.
  const providerMail = updates.find((m) => m.to === people.provider);
  const header = providerMail?.rawHeaders.get("list-unsubscribe") ?? "";
  const oneClick = /^List-Unsubscribe: <(.+)>$/.exec(header)?.[1] ?? "";
  expect(oneClick).toBe(linkTo(providerMail, "/waitlist/unsubscribe"));
  const posted = await fetch(oneClick, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(posted.status).toBe(200);
  expect(posted.headers.get("set-cookie")).toBeNull();
  expect(await posted.text()).toContain("You won't get these updates");
  await page.goto(links["provider"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You have stopped these updates.");
  await page.goto(links["quiet"] ?? "");
  await expect(page.locator("#updates-choice")).toHaveText("You have not asked for these updates.");

  // The console counts both as unsubscribed since; nobody is left to reach.
  await admin.getByRole("link", { name: "Back to Updates" }).click();
  expect((await pastUpdates(admin)).map((row) => row.slice(1))).toEqual([
    ["Subject", "Sent", "Failed", "Unsubscribed since", "State"],
    [SUBJECT, "2", "0", "2", "Sent"],
  ]);
  await expect(admin.getByText("To the 0 confirmed people who said yes to updates.", { exact: false })).toBeVisible();
  await adminContext.close();
});
