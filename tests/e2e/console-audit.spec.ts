/**
 * The delivery log and the audit log, in a real browser at both sizes, against a server of its own, a real SMTP
 * server and a real webhook receiver (verifying every signature) on 127.0.0.1: the team acts from people's pages
 * (invite now, asked then confirmed; resend a confirmation; remove), the receiver refuses the removal's event once,
 * "Retry now" delivers it and a test event follows; then the audit log reads each action as a sentence, newest
 * first, by the admin's address, with no signed-up person's address and no id as its words. A screenshot of the log
 * (the times masked), axe on every page. Then: webhooks off, the log holds the sign-in only; and the delivery log
 * with an event waiting for its next try passes axe.
 */
import {
  ADMIN,
  consoleEnv,
  expectConsolePage,
  expectLook,
  ids,
  mailEnv,
  region,
  seed,
  signIn,
  signInByToken,
  test,
  webhooksTo,
} from "./console-support";
import { expect } from "./fixtures";

const AT_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const nav = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("navigation", { name: "Console" }).getByRole("link", { name }).click();

test("each action the team takes is in the audit log as a sentence, by the admin, never a person's address", async ({
  page,
  smtp,
  receiver,
  signedInServer,
}) => {
  test.setTimeout(120_000);
  // The removal's first try is refused (503): it waits for its next try, or for Retry now.
  receiver.state.answer = (_id, tries, type) => (tries === 1 && type === "waitlist.removed" ? 503 : 204);
  receiver.state.body = () => "";
  const server = await signedInServer(consoleEnv(smtp, webhooksTo(receiver)), seed);
  const actions = page.getByRole("group", { name: "Actions" });

  // From people's pages: Ada invited now (asked, then confirmed), Pat's confirmation again, Cy removed.
  await page.goto(`${server.url}/admin/person?id=${ids.ada}`);
  await actions.getByRole("button", { name: "Invite now…" }).click();
  await page.getByRole("button", { name: "Invite now", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Invited: their e-mail was accepted by the SMTP server.");
  await page.goto(`${server.url}/admin/person?id=${ids.pat}`);
  await actions.getByRole("button", { name: "Resend the confirmation" }).click();
  await expect(page.getByRole("status")).toHaveText(/^A new confirmation went out/);
  await page.goto(`${server.url}/admin/person?id=${ids.cy}`);
  await actions.getByRole("button", { name: "Remove…" }).click();
  await page.getByRole("button", { name: "Remove for good" }).click();

  // The delivery log: the removal refused once; Retry now delivers it; a test event follows.
  await expect
    .poll(() => receiver.received.filter((r) => r.type === "waitlist.removed").length, { timeout: 30_000 })
    .toBe(1);
  await nav(page, "Webhooks");
  const retry = region(page, "Events, newest first").getByRole("button", { name: /^Retry now: Someone was removed/ });
  await expect(async () => {
    await page.reload();
    await expect(retry).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expectConsolePage(page);
  await retry.click();
  await expect(page.getByRole("status")).toHaveText("The event was tried again now: delivered.");
  await page.getByRole("button", { name: "Send a test event" }).click();
  await expect(page.getByRole("status")).toHaveText("A test event was sent; its row shows the answer.");
  await expectConsolePage(page);
  expect(receiver.state.bad).toBe(0);
  expect(receiver.received.map((r) => `${r.type} ${r.answered}`).sort()).toEqual([
    "waitlist.invited 204",
    "waitlist.referral_revoked 204",
    "waitlist.removed 204",
    "waitlist.removed 503",
    "webhook.test 204",
  ]);

  // An export, and signing out and in again, for the log.
  await nav(page, "Overview");
  await page.getByRole("button", { name: "Download the list" }).click();
  await expect(page.getByText(/ 2 sign-ups in 1 part\.$/)).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Send me a sign-in link" })).toBeVisible();
  await signIn(page, smtp, server.url, 2);

  // The audit log: newest first, each action once as a sentence, by the admin's address.
  await nav(page, "Audit log");
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const log = region(page, "What the team did, newest first");
  await expect(log.locator("p.note")).toHaveText("Kept 365 days (AUDIT_DAYS). Never a signed-up person's address.");
  await expect(log.locator("thead th")).toHaveText(["When (UTC)", "Who", "What"]);
  const entries = log.locator("tbody tr");
  await expect(entries.locator(".said")).toHaveText([
    "Signed in with a link sent by e-mail.",
    "Signed out.",
    "Downloaded the list as CSV: 2 sign-ups in 1 part.",
    "Sent a test webhook event.",
    "Retried the webhook event of a removal now.",
    "Removed a person from the list, with everything they sent.",
    "Sent a pending person their confirmation e-mail again.",
    "Invited one person now, from their page.",
    "Signed in with a link sent by e-mail.",
  ]);
  await expect(entries.locator('td[data-label="Who"]')).toHaveText(Array(9).fill(ADMIN));
  await expect(entries.locator('td[data-label="When (UTC)"]')).toHaveText(Array(9).fill(AT_SECONDS));
  // The people still on the list are a click away, by a link that names no one.
  await expect(log.getByRole("link", { name: "Their page" })).toHaveCount(2);
  await expect(page.locator("main")).not.toContainText("@example.com");
  await expectConsolePage(page);
  await expectLook(page, "audit-log.png", [entries.locator('td[data-label="When (UTC)"]')]);
});

test("with webhooks off the delivery log says so, and the audit log holds the sign-in only", async ({
  page,
  smtp,
  signedInServer,
}) => {
  await signedInServer(mailEnv(smtp), seed);
  await nav(page, "Webhooks");
  await expect(region(page, "Deliveries").locator("p").first()).toHaveText(
    "Off: set WEBHOOK_URL and WEBHOOK_SECRET to send the list's changes to another tool.",
  );
  await expect(page.getByRole("button", { name: "Send a test event" })).toHaveCount(0);
  await expectConsolePage(page);
  await nav(page, "Audit log");
  const entries = region(page, "What the team did, newest first").locator("tbody tr");
  await expect(entries.locator(".said")).toHaveText(["Signed in with a link sent by e-mail."]);
  await expect(entries.locator('td[data-label="Who"]')).toHaveText([ADMIN]);
  await expectConsolePage(page);
});

test("the delivery log with an event waiting for its next try passes axe", async ({ page, ownServer, receiver }) => {
  const token = "audit-page-token-0123456789abcdef0123456789";
  receiver.state.answer = (_id, tries, type) => (tries === 1 && type === "webhook.test" ? 503 : 204);
  receiver.state.body = () => "";
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: token, ...webhooksTo(receiver) });
  await signInByToken(page, server.url, token);
  await nav(page, "Webhooks");
  await page.getByRole("button", { name: "Send a test event" }).click();
  await expect(page.getByRole("status")).toHaveText("A test event was sent; its row shows the answer.");
  await expect(page.getByRole("button", { name: /^Retry now: Test event/ })).toHaveText("Retry now");
  await expectConsolePage(page);
});
