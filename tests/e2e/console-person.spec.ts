/**
 * The console's page per person, its delivery log and its audit log, in a real browser at both sizes, against a
 * server of its own, a real SMTP server and a real webhook receiver (verifying every signature) on 127.0.0.1:
 * open people from the list by their address and read every section literally (answers, sources and share code,
 * consent, the UTC timeline, their webhook events), invite a confirmed person now (the e-mail arrives), resend a
 * pending person's confirmation, remove a person through Remove… and its confirmation, retry an event the receiver
 * refused and send a test event, then read the audit log: each action by its name, by the admin's address, and no
 * signed-up person's address. Axe on every page at both sizes; none of them has a <script>.
 * A second test: e-mail on but no EARLY_ACCESS_URL and no webhooks, where the page explains instead of acting.
 * Two more hold the bugs this file found fixed: see them at the end of the file.
 */
import type { Page } from "@playwright/test";
import type { RunningServer } from "../../scripts/lib/server-process";
import type { Store } from "../../src/server/app/store";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const ADMIN = "ops@noosphere.test";
/** A test value (whsec_ and 32 bytes of base64), not a secret. */
const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";
const AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
const AT_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const EVENT_ID = /^msg_[0-9a-f]{32}$/;

/** The seeded people's ids, read back from the seed. */
const ids = { ada: 0, cy: 0, pat: 0 };

/**
 * Ada: confirmed, with every answer (one with markup in it), sources, consent to updates, a counted referral (Cy) and
 * an update sent to her. Cy: confirmed, came by Ada's share code. Pat: pending, nothing but the address.
 */
async function seed(store: Store) {
  const insert = async (values: Record<string, string | number | boolean | null>) => {
    const columns = Object.keys(values);
    const [row] = await store.db.query<{ id: number }>(
      `INSERT INTO waitlist (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING id`,
      Object.values(values),
    );
    return Number(row?.id);
  };
  ids.ada = await insert({
    email: "ada@example.com",
    name: "Ada Lovelace",
    organization: "Analytical Engines",
    why: 'Notes <b>on</b> the "engine" & more',
    connect: "Testing the first programs",
    status: "confirmed",
    source: "newsletter",
    medium: "email",
    campaign: "spring-launch",
    referrer: "t.co",
    page: "/product",
    terms_version: "2d81b8fd62c70c2e",
    created_at: "2026-03-01T10:00:00Z",
    confirmed_at: "2026-03-01T10:07:00Z",
    updates_consent: true,
    updates_consent_at: "2026-03-01T10:08:00Z",
    updates_consent_words: "updates-v1",
    referral_code: "ada2345678",
    referrals: 1,
  });
  ids.pat = await insert({
    email: "pat@example.com",
    status: "pending",
    created_at: "2026-03-02T10:00:00Z",
    referral_code: "pat2345678",
  });
  ids.cy = await insert({
    email: "cy@example.com",
    name: "Cy",
    status: "confirmed",
    terms_version: "2d81b8fd62c70c2e",
    created_at: "2026-03-03T09:00:00Z",
    confirmed_at: "2026-03-03T09:05:00Z",
    referral_code: "cy23456789",
  });
  await store.db.query(
    `INSERT INTO waitlist_referral (referred_id, referrer_id, outcome, created_at, counted_at)
     VALUES ($1, $2, 'counted', '2026-03-03T09:00:00Z', '2026-03-03T09:05:00Z')`,
    [ids.cy, ids.ada],
  );
  const [update] = await store.db.query<{ id: number }>(
    "INSERT INTO waitlist_update (subject, body, author) VALUES ('March news', 'Hello.', 'CLI') RETURNING id",
  );
  await store.db.query(
    "INSERT INTO waitlist_update_recipient (update_id, waitlist_id, state, done_at) VALUES ($1, $2, 'sent', '2026-03-10T12:00:00Z')",
    [update?.id, ids.ada],
  );
}

/** A webhook receiver (the integration tests' own) that answers 503 to the first try of the types in `refuseOnce`. */
async function startReceiver(refuseOnce: string[]) {
  const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  receiver.state.answer = (_id, tries, type) => (tries === 1 && refuseOnce.includes(type) ? 503 : 204);
  receiver.state.body = () => "";
  return receiver;
}

/** Asks for a sign-in link, opens the `nth` one the admin received, and presses its button. */
async function signIn(page: Page, smtp: TestSmtp, base: string, nth: number) {
  await page.goto(`${base}/admin`);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  const mails = await smtp.waitFor(ADMIN, nth);
  await page.goto(mails[nth - 1]?.links[0] ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Waitlist", level: 1 })).toBeVisible();
}

/** What every console page here must be: the header's links, not one <script>, and no axe violation. */
async function expectConsolePage(page: Page) {
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link")).toHaveText([
    "Waitlist",
    "Updates",
    "Webhooks",
    "Audit log",
  ]);
  await expect(page.locator("script")).toHaveCount(0);
  await expectNoAxeViolations(page);
}

/** Opens a person from the dashboard's list by clicking their address. */
async function openFromList(page: Page, email: string, id: number) {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Waitlist" }).click();
  await page.getByRole("region", { name: "Newest sign-ups" }).getByRole("link", { name: email, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/person\\?id=${id}$`));
  await expect(page.getByRole("heading", { name: email, level: 1 })).toBeVisible();
}

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test("a person's page, inviting and removing from it, the delivery log and the audit log", async ({
  page,
  ownServer,
}) => {
  test.setTimeout(120_000);
  const smtp = await startSmtp();
  const receiver = await startReceiver(["waitlist.removed"]);
  let started: RunningServer | undefined;
  try {
    const server = await ownServer(
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: "Noosphere <hello@noosphere.test>",
        ADMIN_EMAILS: ADMIN,
        EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET,
      },
      seed,
    );
    started = server;
    await signIn(page, smtp, server.url, 1);

    // Ada, opened from the list: every section, literally.
    await openFromList(page, "ada@example.com", ids.ada);
    const answers = region(page, "Answers");
    await expect(answers.locator("dt")).toHaveText(["Name", "Organization", "Why", "Connect"]);
    await expect(answers.locator("dd")).toHaveText([
      "Ada Lovelace",
      "Analytical Engines",
      'Notes <b>on</b> the "engine" & more',
      "Testing the first programs",
    ]);
    await expect(answers.locator("b")).toHaveCount(0);
    const from = region(page, "Where they came from");
    await expect(from.locator("dt")).toHaveText(["source", "medium", "campaign", "referrer", "page"]);
    await expect(from.locator("dd")).toHaveText(["newsletter", "email", "spring-launch", "t.co", "/product"]);
    await expect(from.locator("p")).toHaveText(["Share code ada2345678 · 1 counted referral"]);
    await expect(region(page, "Consent").locator("p")).toHaveText(
      "Terms version 2d81b8fd62c70c2e, agreed at sign-up (2026-03-01 10:00); address confirmed 2026-03-01 10:07. Updates: yes since 2026-03-01 10:08 (words: updates-v1).",
    );
    const timeline = region(page, "Timeline (UTC)");
    await expect(timeline.locator("p")).toHaveText("Status: confirmed");
    await expect(timeline.getByRole("listitem")).toHaveText([
      "2026-03-01 10:00 Signed up",
      "2026-03-01 10:07 Confirmed their address",
      "2026-03-03 09:05 A referral of theirs counted",
      "2026-03-10 12:00 Update “March news”: sent",
    ]);
    const hooks = region(page, "Webhooks");
    await expect(hooks.locator("p")).toHaveText("No webhook events for this person.");
    const actions = region(page, "Actions");
    await expect(actions.getByRole("button")).toHaveText(["Invite now", "Remove…"]);
    const reloaded = await page.reload();
    expect(reloaded?.headers()["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-/);
    await expectConsolePage(page);

    // Invite now: she is invited, her e-mail arrives, and her page says so at once.
    await actions.getByRole("button", { name: "Invite now" }).click();
    await expect(page.getByRole("status")).toHaveText("Invited: their e-mail was accepted by the SMTP server.");
    const [invitation] = await smtp.waitFor("ada@example.com");
    expect(invitation?.subject).toBe("Noosphere: your early access is ready");
    expect(invitation?.links[0]).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?invite=[\w-]{27}$/);
    await expect(timeline.locator("p")).toHaveText("Status: invited");
    const steps = timeline.getByRole("listitem");
    await expect(steps).toHaveCount(5);
    await expect(steps.last()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} Invited$/);
    await expect(actions.getByRole("button")).toHaveText(["Remove…"]);
    // The event the invitation wrote, then (delivered after the answer) acknowledged by the receiver.
    await expect(hooks.locator("thead th")).toHaveText(["Event", "At (UTC)", "Delivery"]);
    await expect(hooks.locator("tbody tr")).toHaveCount(1);
    await expect(hooks.locator("tbody td").first()).toHaveText("waitlist.invited");
    await expect(async () => {
      await page.goto(`${server.url}/admin/person?id=${ids.ada}`);
      await expect(hooks.locator("tbody td")).toHaveText(["waitlist.invited", AT, "delivered, 1 attempt"], {
        timeout: 1000,
      });
    }).toPass({ timeout: 30_000 });
    await expectConsolePage(page);

    // Pat, pending: nothing answered, never asked about updates; the confirmation goes out again.
    await openFromList(page, "pat@example.com", ids.pat);
    await expect(region(page, "Answers").locator("dd")).toHaveText(["—", "—", "—", "—"]);
    await expect(region(page, "Where they came from").locator("dd")).toHaveText(["—", "—", "—", "—", "—"]);
    await expect(region(page, "Where they came from").locator("p")).toHaveText([
      "Share code pat2345678 · 0 counted referrals",
    ]);
    await expect(region(page, "Consent").locator("p")).toHaveText(
      "Terms version —, agreed at sign-up (2026-03-02 10:00); address confirmed not yet. Updates: never asked.",
    );
    await expect(region(page, "Timeline (UTC)").getByRole("listitem")).toHaveText(["2026-03-02 10:00 Signed up"]);
    await expect(region(page, "Actions").getByRole("button")).toHaveText(["Resend the confirmation", "Remove…"]);
    await expectConsolePage(page);
    await page.getByRole("button", { name: "Resend the confirmation" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "A new confirmation went out, unless one did in the last 10 minutes.",
    );
    const [confirmation] = await smtp.waitFor("pat@example.com");
    expect(confirmation?.subject).toBe("Confirm your place on the Noosphere waitlist");

    // Cy came by Ada's share code; removed through their page's Remove… and its confirmation.
    await openFromList(page, "cy@example.com", ids.cy);
    await expect(region(page, "Where they came from").locator("p")).toHaveText([
      "Came by share code ada2345678 (counted).",
      "Share code cy23456789 · 0 counted referrals",
    ]);
    await expect(region(page, "Timeline (UTC)").getByRole("listitem")).toHaveText([
      "2026-03-03 09:00 Signed up",
      "2026-03-03 09:05 Confirmed their address",
    ]);
    await expectConsolePage(page);
    await page.getByRole("button", { name: "Remove…" }).click();
    await expect(page.getByRole("heading", { name: "Remove cy@example.com?" })).toBeVisible();
    await expectConsolePage(page);
    await page.getByRole("button", { name: "Remove for good" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Removed: the address, everything it sent and its links are deleted.",
    );
    await expect(page.getByRole("link", { name: "cy@example.com" })).toHaveCount(0);
    await page.goto(`${server.url}/admin/person?id=${ids.cy}`);
    await expect(page.getByRole("alert")).toHaveText("There is nobody with that number: they may have left the list.");
    // Ada's counted referral went with Cy.
    await page.goto(`${server.url}/admin/person?id=${ids.ada}`);
    await expect(region(page, "Where they came from").locator("p")).toHaveText([
      "Share code ada2345678 · 0 counted referrals",
    ]);
    await expect(region(page, "Timeline (UTC)").getByText("A referral of theirs counted")).toHaveCount(0);

    // The delivery log: on, the removal refused once by the receiver (waiting for its next try), the rest delivered.
    await expect
      .poll(() => receiver.received.filter((r) => r.type === "waitlist.removed").length, { timeout: 30_000 })
      .toBe(1);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    const deliveries = region(page, "Deliveries");
    // Scheme and host only: the rest of WEBHOOK_URL may hold a secret.
    await expect(deliveries.locator("p").first()).toHaveText(
      `On: events go to ${new URL(receiver.url).origin} (the rest of WEBHOOK_URL is not shown: it may hold a secret), signed with WEBHOOK_SECRET.`,
    );
    const recent = region(page, "Recent events");
    const rowOf = (type: string) => recent.locator("tbody tr").filter({ hasText: type });
    await expect(async () => {
      await page.reload();
      await expect(deliveries.locator("p").nth(1)).toHaveText("1 waiting · 2 delivered · 0 failed", {
        timeout: 1000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(recent.locator("thead th")).toHaveText([
      "Event",
      "At (UTC)",
      "Status",
      "Attempts",
      "Last answer",
      "Next try",
      "Actions",
    ]);
    await expect(recent.locator("tbody tr")).toHaveCount(3);
    const removedCells = rowOf("waitlist.removed").locator("td");
    await expect(removedCells).toHaveText([
      /^waitlist\.removed\s*Payload\s*webhook-id msg_[0-9a-f]{32}/,
      AT_SECONDS,
      "pending",
      "1",
      "503 (answered 503)",
      AT_SECONDS,
      "Retry now",
    ]);
    await expect(rowOf("waitlist.invited").locator("td")).toHaveText([
      /^waitlist\.invited/,
      AT_SECONDS,
      "delivered",
      "1",
      "204",
      "—",
      "",
    ]);
    await expect(rowOf("waitlist.referral_revoked").locator("td").nth(2)).toHaveText("delivered");
    await expect(page.getByRole("button", { name: "Send a test event" })).toBeVisible();
    // A waiting event's payload is what the receiver will be sent, its person included (issue 40: the team's own
    // console shows each event's payload); a delivered event keeps no person.
    await expect(rowOf("waitlist.removed")).toContainText('"email": "cy@example.com"');
    await expect(rowOf("waitlist.invited")).not.toContainText("@example.com");
    await expect(rowOf("waitlist.referral_revoked")).not.toContainText("@example.com");
    await expectConsolePage(page);

    // Retry now: the receiver takes it this time.
    const retry = page.getByRole("button", { name: /^Retry now: msg_[0-9a-f]{32}$/ });
    await expect(retry).toHaveCount(1);
    const removedEvent = ((await retry.getAttribute("aria-label")) ?? "").split(" ")[2] ?? "";
    expect(removedEvent).toMatch(EVENT_ID);
    await retry.click();
    await expect(page.getByRole("status")).toHaveText("The event was tried again now: delivered.");
    await expect(removedCells.nth(2)).toHaveText("delivered");
    await expect(removedCells.nth(3)).toHaveText("1");
    await expect(removedCells.nth(4)).toHaveText("204");
    await expect(page.getByRole("button", { name: /^Retry / })).toHaveCount(0);
    await expect(deliveries.locator("p").nth(1)).toHaveText("0 waiting · 3 delivered · 0 failed");
    await expectConsolePage(page);

    // Send a test event: delivered at once, newest first.
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect(page.getByRole("status")).toHaveText("A test event was sent; its row shows the answer.");
    await expect(recent.locator("tbody tr").first().locator("td")).toHaveText([
      /^webhook\.test\s*Payload\s*webhook-id msg_[0-9a-f]{32}/,
      AT_SECONDS,
      "delivered",
      "1",
      "204",
      "—",
      "",
    ]);
    await expect(deliveries.locator("p").nth(1)).toHaveText("0 waiting · 4 delivered · 0 failed");
    const testEvent = ((await recent.locator("tbody tr").first().locator(".note").textContent()) ?? "")
      .trim()
      .replace(/^webhook-id /, "");
    expect(testEvent).toMatch(EVENT_ID);
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
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Waitlist" }).click();
    await page.getByRole("button", { name: "Download the list" }).click();
    await expect(page.getByText(/ 2 sign-ups in 1 part\.$/)).toBeVisible();
    await page.getByRole("link", { name: "Back to the console" }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("button", { name: "Send me a sign-in link" })).toBeVisible();
    await signIn(page, smtp, server.url, 2);

    // The audit log: newest first, every entry by the admin's address, never a signed-up person's.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    const log = region(page, "What the team did, newest first");
    await expect(log.locator("p.note")).toHaveText("Kept 365 days (AUDIT_DAYS). Never a signed-up person's address.");
    await expect(log.locator("thead th")).toHaveText(["When (UTC)", "Who", "What", "Details"]);
    const entries = log.locator("tbody tr");
    await expect(entries.locator("td:nth-child(3)")).toHaveText([
      "sign-in",
      "sign-out",
      "export",
      "webhook-test",
      "webhook-retry",
      "remove",
      "resend-confirmation",
      "wave",
      "sign-in",
    ]);
    await expect(entries.locator("td:nth-child(2)")).toHaveText(Array(9).fill(ADMIN));
    await expect(entries.locator("td:nth-child(1)")).toHaveText(Array(9).fill(AT_SECONDS));
    await expect(entries.locator("td:nth-child(4)")).toHaveText([
      "by: link",
      "",
      // jsonb keeps keys shortest first, so the details read in that order.
      "via: console, rows: 2, parts: 1, format: csv",
      `event: ${testEvent}`,
      `event: ${removedEvent}, queued: true`,
      "removed: true",
      `person: ${ids.pat}`,
      `size: 1, person: ${ids.ada}, invited: 1`,
      "by: link",
    ]);
    const text = (await page.locator("body").textContent()) ?? "";
    for (const email of ["cy@example.com", "pat@example.com", "ada@example.com"]) {
      expect(text).not.toContain(email);
    }
    await expect(page.locator("main")).not.toContainText("@example.com");
    await expectConsolePage(page);
  } catch (error) {
    // On a failure, what the server logged (its delivery attempts among it) is kept with the report.
    if (started) await test.info().attach("server output", { body: started.output(), contentType: "text/plain" });
    throw error;
  } finally {
    await receiver.close();
    await smtp.close();
  }
});

test("with e-mail on but no EARLY_ACCESS_URL and no webhooks, the pages explain instead of acting", async ({
  page,
  ownServer,
}) => {
  const smtp = await startSmtp();
  try {
    const server = await ownServer(
      { SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>", ADMIN_EMAILS: ADMIN },
      seed,
    );
    await signIn(page, smtp, server.url, 1);
    await openFromList(page, "ada@example.com", ids.ada);
    await region(page, "Actions").getByRole("button", { name: "Invite now" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "EARLY_ACCESS_URL is not set: set it to the product's sign-up page (e.g. https://app.noosphere.app/signup); nothing was changed.",
    );
    await expect(region(page, "Timeline (UTC)").locator("p")).toHaveText("Status: confirmed");
    await expectConsolePage(page);
    expect(smtp.messages.map((m) => m.to)).toEqual([ADMIN]);

    // Someone who is not (or no longer) on the list.
    await page.goto(`${server.url}/admin/person?id=999999`);
    await expect(page.getByRole("alert")).toHaveText("There is nobody with that number: they may have left the list.");

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(region(page, "Deliveries").locator("p")).toHaveText([
      "Off: set WEBHOOK_URL and WEBHOOK_SECRET to send the list's changes to another tool.",
      "0 waiting · 0 delivered · 0 failed",
    ]);
    await expect(page.getByRole("button", { name: "Send a test event" })).toHaveCount(0);
    await expect(region(page, "Recent events").locator("p")).toHaveText("No events yet.");
    await expectConsolePage(page);

    // Nothing was invited, so the log holds the sign-in only.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
    const entries = region(page, "What the team did, newest first").locator("tbody tr");
    await expect(entries.locator("td:nth-child(3)")).toHaveText(["sign-in"]);
    await expect(entries.locator("td:nth-child(2)")).toHaveText([ADMIN]);
    await expectConsolePage(page);
  } finally {
    await smtp.close();
  }
});

/** Signs in with the admin token (e-mail off). */
async function signInByToken(page: Page, base: string, token: string) {
  await page.goto(`${base}/admin`);
  await page.getByLabel("Admin token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Signed in as the admin token")).toBeVisible();
}

const TOKEN = "person-page-token-0123456789abcdef0123456789";

/*
 * Two bugs this file found, held fixed: the answers and sources once reused the dashboard's totals style (24 px
 * bold, no wrapping), so an ordinary referrer host such as news.ycombinator.com overflowed its box and a phone's
 * page laid out 515 px wide (WCAG 1.4.10 Reflow); "Retry now" was named "Retry msg_… now", which does not contain
 * its visible words (axe's label-content-name-mismatch, WCAG 2.5.3).
 */
test("the person page's answers and sources fit their boxes, and the page a phone's width", async ({
  page,
  ownServer,
}) => {
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN }, async (store) => {
    await store.db.query(
      `INSERT INTO waitlist (email, name, organization, status, source, referrer, page, referral_code)
       VALUES ('ada@example.com', 'Ada Lovelace', 'Analytical Engines', 'confirmed', 'hn', 'news.ycombinator.com',
         '/product', 'ada2345678')`,
    );
  });
  await signInByToken(page, server.url, TOKEN);
  await page.getByRole("region", { name: "Newest sign-ups" }).getByRole("link", { name: "ada@example.com" }).click();
  await expect(region(page, "Where they came from").locator("dd")).toHaveText([
    "hn",
    "—",
    "—",
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

test("the delivery log with an event waiting for its next try passes axe", async ({ page, ownServer }) => {
  const receiver = await startReceiver(["webhook.test"]);
  try {
    const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN, WEBHOOK_URL: receiver.url, WEBHOOK_SECRET });
    await signInByToken(page, server.url, TOKEN);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect(page.getByRole("status")).toHaveText("A test event was sent; its row shows the answer.");
    await expect(region(page, "Recent events").locator("tbody td").nth(2)).toHaveText("pending");
    await expect(page.getByRole("button", { name: /^Retry now: msg_[0-9a-f]{32}$/ })).toHaveText("Retry now");
    await expectConsolePage(page);
  } finally {
    await receiver.close();
  }
});
