/**
 * Someone invited, at 375 and 1280 px (issue 54): the team invites them from their console page, then sends the
 * invitation again (once: the control says so before, and a second press, from a tab opened before the first, is
 * refused and explained; audited; the e-mail carries a new code), and their status page says they are in: the
 * product's button first, when their code ends, and no word of places or referrals; its share links are targets
 * of 44 px (a bare "X" was 12 × 20). Axe on every state, a screenshot of each. Below the browser (the mailbox's daily cap, a refused e-mail undone):
 * tests/integration/invitations/resend.test.ts.
 */
import type { Page } from "@playwright/test";
import { ADMIN, consoleEnv, expectConsolePage, ids, region, seed, signIn, test } from "./console-support";
import { expect, expectNoAxeViolations } from "./fixtures";
import { linkTo } from "./referrals-support";

/** A deployer's SERVER_SECRET, so the status page carries the code (a test value). */
const SERVER_SECRET = "aW52aXRlZC1wZXJzb24tc2VydmVyLXNlY3JldC0wMTIzNDU=";
const AT = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}";

const shot = async (page: Page, name: string) =>
  test.info().attach(`${name}-${page.viewportSize()?.width}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: "image/png",
  });

test("invited: the invitation goes again once, audited, and the status page says they are in", async ({
  page,
  context,
  ownServer,
  smtp,
}) => {
  test.setTimeout(180_000);
  const server = await ownServer(consoleEnv(smtp, { SERVER_SECRET }), seed);
  const person = `${server.url}/admin/person?id=${ids.ada}`;
  await signIn(page, smtp, server.url);
  await page.goto(person);
  await page.getByRole("button", { name: "Invite now…" }).click();
  await page.getByRole("button", { name: "Invite now", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Invited: their e-mail was accepted by the SMTP server.");
  const [first] = await smtp.waitFor("ada@example.com");

  // Before it is pressed, the control says what it does and that it works once.
  const actions = page.getByRole("group", { name: "Actions" });
  await expect(actions.getByRole("button")).toHaveText(["Resend the invitation", "Remove…"]);
  const resend = actions.getByRole("button", { name: "Resend the invitation" });
  await expect(resend).toHaveAccessibleDescription(
    "Resend the invitation: once only, a new e-mail with a new code, good for at least 30 days; the code in the first e-mail stops working. It counts toward their mailbox's 3 e-mails a day.",
  );
  await expectConsolePage(page);
  await shot(page, "person-invited");
  const stale = await context.newPage();
  await stale.goto(person);

  await resend.click();
  await expect(page.getByRole("status")).toHaveText(
    "Their invitation went out again, with a new code: the code in the first e-mail no longer works.",
  );
  const [, again] = await smtp.waitFor("ada@example.com", 2);
  expect(again?.subject).toBe("Noosphere: your early access is ready");
  const code = (mail: typeof first) => new URL(linkTo(mail, "/signup")).searchParams.get("invite");
  expect(code(again)).toMatch(/^[\w-]{27}$/);
  expect(code(again)).not.toBe(code(first));
  await expect(actions.getByRole("button")).toHaveText(["Remove…"]);
  const said = new RegExp(
    `^Their invitation was sent again on ${AT} UTC\\. It goes again only once: write to them yourself if it still has not arrived\\.$`,
  );
  await expect(page.locator("#resend-note")).toHaveText(said);
  await expect(region(page, "Timeline (UTC)").getByRole("listitem").last()).toHaveText(
    new RegExp(`^${AT} Sent their invitation again \\(by the team\\)$`),
  );
  await expectConsolePage(page);
  await shot(page, "person-resent");

  // A second press, from the tab opened before the first: refused, explained, nothing sent.
  await stale.getByRole("button", { name: "Resend the invitation" }).click();
  await expect(stale.getByRole("alert")).toHaveText(said);
  await expectConsolePage(stale);
  await shot(stale, "person-resend-refused");
  expect(smtp.messages.filter((m) => m.to === "ada@example.com")).toHaveLength(2);
  await stale.close();

  // Audited, in words.
  await page.goto(`${server.url}/admin/audit`);
  await expect(page.getByText("Sent an invited person their invitation again, with a new code.")).toBeVisible();

  // Their status page, from the new e-mail: they are in.
  await page.goto(linkTo(again, "/waitlist/status"));
  await expect(page).toHaveTitle("Your early access · Noosphere");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You’re in: welcome to Noosphere");
  const body = page.locator("#status-body");
  const firstControl = body.locator("a, button, input").first();
  await expect(firstControl).toHaveText("Create my account");
  await expect(firstControl).toHaveAttribute("href", /^https:\/\/app\.noosphere\.test\/signup\?invite=[\w-]{27}$/);
  await expect(page.locator("#invite-ends")).toHaveText("Your invitation’s code works until July 15, 2026.");
  await expect(body).not.toHaveText(/place|referral|in line|forward|waiting/i);
  // Sharing stays (the list still grows by their link), each network a target of 44 px at least, "X" too.
  const networks = page.getByRole("list", { name: "Or share it on" }).getByRole("link");
  await expect(networks).toHaveText(["X", "LinkedIn", "WhatsApp", "Bluesky"]);
  for (const box of await networks.evaluateAll((links) => links.map((a) => a.getBoundingClientRect().toJSON()))) {
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
  await expect(page.getByRole("banner").getByRole("link", { name: "You are invited" })).not.toHaveCount(0);
  await expectNoAxeViolations(page);
  await shot(page, "status-invited");
  expect(smtp.messages.map((m) => m.to)).toEqual([ADMIN, "ada@example.com", "ada@example.com"]);
});
