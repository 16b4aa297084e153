/**
 * The console's page per person, in a real browser at both sizes, against a server of its own, a real SMTP server
 * and webhooks on: open people from the People list by their address and read every section literally (the status
 * badge, answers, sources, share link, consent in words, the UTC timeline, their webhook events); Invite now asks
 * once (its page names where they stand), then the e-mail arrives; resend a pending person's confirmation; remove
 * a person they brought, and the referral taken back shows in the referrer's timeline as in their webhooks.
 * Screenshots of the page and of the question (Playwright's comparison), axe on every page, none with a <script>.
 * Then: e-mail on but no EARLY_ACCESS_URL, where the page explains instead of asking; and the page a phone's width.
 * The delivery log and the audit log: console-audit.spec.ts.
 */
import type { Locator } from "@playwright/test";
import {
  ADMIN,
  consoleEnv,
  expectConsolePage,
  expectLook,
  ids,
  mailEnv,
  openFromList,
  region,
  seed,
  signInByToken,
  test,
  webhooksTo,
} from "./console-support";
import { expect } from "./fixtures";

const AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

/** A list of facts reads these terms, in this order, each with its value. */
async function expectFacts(list: Locator, facts: Array<[string, string]>) {
  await expect(list.locator("dt")).toHaveText(facts.map(([term]) => term));
  await expect(list.locator("dd")).toHaveText(facts.map(([, value]) => value));
}

test("a person's page, read whole; Invite now asks once; a referral taken back shows as in the webhooks", async ({
  page,
  smtp,
  receiver,
  signedInServer,
}) => {
  test.setTimeout(120_000);
  const server = await signedInServer(consoleEnv(smtp, webhooksTo(receiver)), seed);

  // Ada, opened from the list: every section, literally.
  await openFromList(page, "ada@example.com", ids.ada);
  await expect(page.locator(".title-row .badge")).toHaveText("Confirmed");
  const answers = region(page, "Answers");
  await expectFacts(answers, [
    ["Name", "Ada Lovelace"],
    ["Organization", "Analytical Engines"],
    ["Why are you interested?", 'Notes <b>on</b> the "engine" & more'],
    ["How would you like to connect or contribute?", "Testing the first programs"],
  ]);
  await expect(answers.locator("b")).toHaveCount(0);
  await expectFacts(region(page, "Where they came from"), [
    ["Source", "newsletter"],
    ["Medium", "email"],
    ["Campaign", "spring-launch"],
    ["Referring site", "t.co"],
    ["Landing page", "/product"],
  ]);
  const share = region(page, "Their share link");
  await expect(share.locator("dd")).toHaveText([
    "ada2345678",
    `${new URL(page.url()).origin}/?via=ada2345678`,
    "1 counted",
  ]);
  const consent = region(page, "Consent");
  await expect(consent.locator("dt")).toHaveText(["Terms agreed at sign-up", "Address", "Updates"]);
  await expect(consent.locator("dd").nth(0)).toHaveText("The Terms of Service of November 22, 2026");
  await expect(consent.locator("dd").nth(1)).toHaveText("Confirmed 2026-03-01 10:07 UTC");
  await expect(consent.locator("dd").nth(2)).toContainText(
    "Yes since 2026-03-01 10:08 UTC, on their status page, to these words:",
  );
  await expect(consent.locator("blockquote")).toHaveText(/^Occasional e-mails from the Noosphere team while you wait/);
  const timeline = region(page, "Timeline (UTC)");
  await expect(timeline.getByRole("listitem")).toHaveText([
    "2026-03-01 10:00 Signed up",
    "2026-03-01 10:07 Confirmed their address",
    "2026-03-01 10:08 Said yes to updates",
    "2026-03-03 09:05 A referral of theirs counted: cy@example.com confirmed",
    "2026-03-10 12:00 Sent the update “March news”",
  ]);
  await expect(region(page, "Webhooks").locator("p")).toHaveText("No webhook events for this person.");
  const actions = page.getByRole("group", { name: "Actions" });
  await expect(actions.getByRole("button")).toHaveText(["Invite now…", "Remove…"]);
  const reloaded = await page.reload();
  expect(reloaded?.headers()["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-/);
  await expectConsolePage(page);
  await expectLook(page, "person.png", [share.locator("dd").nth(1)]);

  // Invite now… asks first: who, where they stand, what they get. Nothing is sent by asking.
  await actions.getByRole("button", { name: "Invite now…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invite ada@example.com now?");
  await expect(region(page, "What happens").locator("p")).toHaveText([
    "They are first in line, of 2 people waiting.",
    "They get an e-mail now with a single-use link to the product, good for 30 days, and leave the line.",
  ]);
  await expectConsolePage(page);
  await expectLook(page, "invite-now.png");
  expect(smtp.messages.map((m) => m.to)).toEqual([ADMIN]);
  await page.getByRole("button", { name: "Invite now", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Invited: their e-mail was accepted by the SMTP server.");
  const [invitation] = await smtp.waitFor("ada@example.com");
  expect(invitation?.subject).toBe("Noosphere: your early access is ready");
  expect(invitation?.links[0]).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?invite=[\w-]{27}$/);
  await expect(page.locator(".title-row .badge")).toHaveText("Invited");
  await expect(timeline.getByRole("listitem").last()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} Invited$/);
  await expect(actions.getByRole("button")).toHaveText(["Resend the invitation", "Remove…"]);
  // The event the invitation wrote, then (delivered after the answer) acknowledged by the receiver.
  const hooks = region(page, "Webhooks");
  await expect(hooks.locator("thead th")).toHaveText(["Event", "At (UTC)", "Delivery"]);
  await expect(async () => {
    await page.goto(`${server.url}/admin/person?id=${ids.ada}`);
    await expect(hooks.locator("tbody td")).toHaveText(["Invited waitlist.invited", AT, "Delivered 1 attempt"], {
      timeout: 1000,
    });
  }).toPass({ timeout: 30_000 });
  await expectConsolePage(page);

  // Pat, pending: nothing answered, never asked about updates; the confirmation goes out again.
  await openFromList(page, "pat@example.com", ids.pat);
  await expect(page.locator(".title-row .badge")).toHaveText("Pending");
  await expect(region(page, "Answers").locator("dd")).toHaveText(Array(4).fill("Not given"));
  await expect(region(page, "Where they came from").locator("dd")).toHaveText(Array(5).fill("Not given"));
  await expect(region(page, "Consent").locator("dd")).toHaveText([
    "Not recorded (they signed up before the terms were kept with each sign-up)",
    "Not confirmed yet",
    "Not asked yet: they are asked on their status page once they confirm",
  ]);
  await expect(region(page, "Timeline (UTC)").getByRole("listitem")).toHaveText(["2026-03-02 10:00 Signed up"]);
  await expect(page.getByRole("group", { name: "Actions" }).getByRole("button")).toHaveText([
    "Resend the confirmation",
    "Remove…",
  ]);
  await expectConsolePage(page);
  await page.getByRole("button", { name: "Resend the confirmation" }).click();
  await expect(page.getByRole("status")).toHaveText("A new confirmation went out.");
  const [confirmation] = await smtp.waitFor("pat@example.com");
  expect(confirmation?.subject).toBe("Confirm your place on the Noosphere waitlist");

  // Cy came by Ada's share link; removed through their page's Remove… and its question.
  await openFromList(page, "cy@example.com", ids.cy);
  await expect(region(page, "Where they came from").locator("p")).toHaveText(
    "Came by the share link of ada@example.com: it counted for them.",
  );
  await expectConsolePage(page);
  await page.getByRole("button", { name: "Remove…" }).click();
  await expect(page.getByRole("heading", { name: "Remove cy@example.com?" })).toBeVisible();
  await page.getByRole("button", { name: "Remove for good" }).click();
  await page.goto(`${server.url}/admin/person?id=${ids.cy}`);
  await expect(page.getByRole("alert")).toHaveText("There is nobody with that number: they may have left the list.");

  // Ada's referral was taken back: her timeline says so, as her webhooks do (referred before, revoked now).
  await page.goto(`${server.url}/admin/person?id=${ids.ada}`);
  await expect(region(page, "Their share link").locator("dd").nth(2)).toHaveText("0 count now; 1 was taken back");
  const steps = region(page, "Timeline (UTC)").getByRole("listitem");
  await expect(steps.nth(3)).toHaveText("2026-03-03 09:05 A referral of theirs counted (that person has since left)");
  await expect(steps.last()).toHaveText(
    /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} A referral of theirs was taken back: the person they brought left the list$/,
  );
  await expect(hooks.locator("tbody tr").first().locator("td").first()).toHaveText(
    "A referral taken back waitlist.referral_revoked",
  );
  await expectConsolePage(page);
});

test("with e-mail on but no EARLY_ACCESS_URL, Invite now explains instead of asking", async ({
  page,
  smtp,
  signedInServer,
}) => {
  const server = await signedInServer(mailEnv(smtp), seed);
  await openFromList(page, "ada@example.com", ids.ada);
  await page.getByRole("group", { name: "Actions" }).getByRole("button", { name: "Invite now…" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "EARLY_ACCESS_URL is not set: set it to the product's sign-up page (e.g. https://app.noosphere.app/signup); nothing was changed.",
  );
  await expect(page.locator(".title-row .badge")).toHaveText("Confirmed");
  await expectConsolePage(page);
  expect(smtp.messages.map((m) => m.to)).toEqual([ADMIN]);

  // Someone who is not (or no longer) on the list.
  await page.goto(`${server.url}/admin/person?id=999999`);
  await expect(page.getByRole("alert")).toHaveText("There is nobody with that number: they may have left the list.");
});

/*
 * A bug this file found, held fixed: the answers and sources once reused the dashboard's totals style (24 px bold,
 * no wrapping), so an ordinary referrer host such as news.ycombinator.com overflowed its box and a phone's page
 * laid out 515 px wide (WCAG 1.4.10 Reflow).
 */
test("the person page's answers and sources fit their boxes, and the page a phone's width", async ({
  page,
  ownServer,
}) => {
  const token = "person-page-token-0123456789abcdef0123456789";
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: token }, async (store) => {
    await store.db.query(
      `INSERT INTO waitlist (email, name, organization, status, source, referrer, page, referral_code)
       VALUES ('ada@example.com', 'Ada Lovelace', 'Analytical Engines', 'confirmed', 'hn', 'news.ycombinator.com',
         '/product', 'ada2345678')`,
    );
  });
  await signInByToken(page, server.url, token);
  await expect(page.getByText("Signed in as the admin token")).toBeVisible();
  await openFromList(page, "ada@example.com", 1);
  await expect(region(page, "Where they came from").locator("dd")).toHaveText([
    "hn",
    "Not given",
    "Not given",
    "news.ycombinator.com",
    "/product",
  ]);
  const overflowing = await page
    .locator("dd")
    .evaluateAll((boxes) => boxes.filter((dd) => dd.scrollWidth > dd.clientWidth).map((dd) => dd.textContent));
  expect(overflowing).toEqual([]);
  const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(width[0]).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
});
