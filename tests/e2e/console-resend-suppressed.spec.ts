/**
 * "Resend the confirmation" to a suppressed address, in a real browser at both sizes, against a server of its own
 * and a real SMTP server: once mail to a pending person is stopped, their page holds the button back and says why;
 * pressed from a page loaded before (another tab), it says the e-mail was not sent, because of the suppression, with
 * a link to it; nothing reaches the SMTP server, and the audit log says it was not sent. Axe and a screenshot on
 * every state.
 */
import { ADMIN, checkState, consoleEnv, ids, region, seed, signIn, test } from "./console-support";
import { expect } from "./fixtures";

test("a suppressed address is not sent its confirmation, and every screen says so", async ({
  page,
  ownServer,
  smtp,
}) => {
  test.setTimeout(90_000);
  const server = await ownServer(consoleEnv(smtp), seed);
  await signIn(page, smtp, server.url);
  const patPage = `${server.url}/admin/person?id=${ids.pat}`;
  // A tab opened before the suppression: its button still offers to resend.
  const stale = await page.context().newPage();
  await stale.goto(patPage);
  const staleResend = stale.getByRole("button", { name: "Resend the confirmation" });
  await expect(staleResend).toBeEnabled();

  await page.goto(patPage);
  await page.getByRole("button", { name: "Stop all mail to this address" }).click();
  await expect(page.getByRole("status")).toHaveText("Suppressed: no e-mail goes to this address until it is lifted.");
  // Before it is pressed: held back, its reason beside it and read with it.
  const resend = page.getByRole("button", { name: "Resend the confirmation" });
  await expect(resend).toBeDisabled();
  await expect(resend).toHaveAccessibleDescription("Not while the address is suppressed: see the suppression.");
  await expect(page.getByRole("link", { name: "see the suppression" })).toHaveAttribute("href", "#mail");
  await checkState(page, "resend held back");

  // Pressed from the other tab: not sent, and why, with the way to the suppression.
  await staleResend.click();
  const said = stale.getByRole("alert");
  await expect(said).toHaveText(
    "Not sent: this address is suppressed, so no e-mail goes to it until the suppression is lifted. See the suppression.",
  );
  await expect(stale.getByText("A new confirmation went out")).toHaveCount(0);
  await checkState(stale, "resend refused");
  await said.getByRole("link", { name: "See the suppression" }).click();
  await expect(stale).toHaveURL(/#mail$/);
  await expect(region(stale, "Mail")).toContainText("No e-mail goes to this address: an operator stopped all mail");
  await stale.close();
  expect(smtp.messages.filter((m) => m.to.includes("pat@example.com"))).toEqual([]);

  // The audit log: the suppression, then a resend that did not send.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  const entries = region(page, "What the team did, newest first").locator("tbody tr");
  await expect(entries.locator(".said")).toHaveText([
    "Did not send a pending person their confirmation e-mail again: their address is suppressed.",
    "Stopped all mail to a person.",
    "Signed in with a link sent by e-mail.",
  ]);
  await expect(entries.locator('td[data-label="Who"]')).toHaveText([ADMIN, ADMIN, ADMIN]);
  await checkState(page, "audit of the refused resend");
});
