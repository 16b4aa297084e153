/**
 * Long jobs in the console, in a real browser at both sizes, against a server of its own (npm start's local
 * Netlify, whose background function runs the job) and a real SMTP server on 127.0.0.1: a wave's own page while it
 * runs (its state badge, bar, counts, a refresh every few seconds), paused (no refresh, Resume), and finished; the
 * first page's list of jobs under way; the webhook banner while a receiver fails, and the delivery log. Axe on
 * each, no sideways scrolling, 0 scripts, and a screenshot of each state (in the test's output folder); the look
 * of a finished job's page and of the delivery log compared with their screenshots at 375 and 1280 px
 * (tests/e2e/console-jobs.spec.ts-snapshots/; `--update-snapshots` after a change of design). Below the browser:
 * tests/integration/console/console-waves.test.ts, jobs-background.test.ts and webhooks-console.test.ts.
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import type { TestSmtp } from "../support/smtp";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { ADMIN, checkState, consoleEnv, expectLook, FINISHED, signIn } from "./console-support";
import { expect, test } from "./fixtures";

const SECRET = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

// A server of its own, a wave and a backlog each: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 240_000 });

/** A held message must outlast the checks made while it is held: the mailer's 20 s of silence, lengthened. */
const env = (smtp: TestSmtp, extra: Record<string, string> = {}) =>
  consoleEnv(smtp, { SMTP_URL: `${smtp.url}?socketTimeout=180000`, ...extra });

const seedConfirmed = (n: number) => async (store: Store) => {
  await store.db.query(
    `INSERT INTO waitlist (name, email, status, created_at)
     SELECT 'Person ' || g, 'p' || g || '@example.com', 'confirmed', timestamptz '2026-01-01' + g * interval '1 minute'
     FROM generate_series(1, $1::int) AS g`,
    [n],
  );
};

/**
 * Each state checked whole (console-support.ts's checkState). A page that refreshes itself is checked as loaded
 * again with its refresh taken out (its presence is asserted apart): axe on a loaded machine can outlast the 3
 * seconds, and a reload under it is no finding.
 */
async function check(page: Page, name: string) {
  if ((await page.locator('meta[http-equiv="refresh"]').count()) > 0) {
    const url = page.url();
    await page.route(url, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<meta http-equiv="refresh" content="\d+"\/>/, "");
      await route.fulfill({ response, body });
    });
    await page.goto(url);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  }
  await checkState(page, name);
  await page.unrouteAll();
}

test("a wave's own page: running with its bar and refresh, paused, resumed to the end", async ({
  page,
  ownServer,
  smtp,
}) => {
  const server = await ownServer(env(smtp), seedConfirmed(6));
  await signIn(page, smtp, server.url);
  // The third invitation waits at its RCPT TO until the test lets it go: the wave is caught running.
  const held = smtp.hold("rcpt", "p3@example.com");
  await page.getByLabel("How many").fill("6");
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: "Invite 6" }).click();
  await held.reached;
  // Named by what it does, never by its id; its state a badge.
  await expect(page.getByRole("heading", { level: 1, name: "Inviting 6 people" })).toBeVisible();
  await expect(page.getByRole("status").last()).toHaveText("Running");
  await expect(page.locator(".job-state .badge")).toHaveText("Running");
  const bar = page.getByRole("progressbar");
  await expect(bar).toHaveAttribute("max", "6");
  await expect(bar).toHaveAttribute("value", "2");
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "3");
  await expect(page.locator("dl.facts")).toContainText(`Started by${ADMIN}`);
  await check(page, "wave-running");

  // The first page lists it with its bar.
  await page.goto(`${server.url}/admin`);
  const open = page.getByRole("region", { name: "Under way" });
  await expect(open.getByRole("progressbar", { name: "Inviting 6 people: 2 of 6 (33%)" })).toHaveAttribute(
    "value",
    "2",
  );
  await expect(open.locator(".badge")).toHaveText("Running");
  await check(page, "first-page-running");
  await open.getByRole("link", { name: "Follow it: Inviting 6 people" }).click();

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").first()).toHaveText("Paused: the run stops before its next message.");
  held.release();
  await expect(page.getByRole("status").last()).toHaveText(
    `Paused Nothing more goes out until it is resumed. Paused by ${ADMIN}.`,
  );
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await check(page, "wave-paused");

  await page.getByRole("button", { name: "Resume" }).click();
  // Finished: it says so and when, in the past tense, never an estimate of a finish.
  await expect(page.getByRole("status").last()).toHaveText(FINISHED, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Invited 6 people" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Invited 6 people: 6 of 6 (100%)" })).toHaveAttribute(
    "value",
    "6",
  );
  await expect(page.locator("dl.facts dt")).toHaveText([
    "Invited",
    "Refused by the mail server",
    "Still to invite",
    "Speed",
    "Finished",
    "Started by",
    "Started",
  ]);
  await expect(
    page
      .locator("dl.facts div")
      .filter({ hasText: /^Finished/ })
      .locator("dd"),
  ).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await expect(page.locator("main")).not.toContainText(/Inviting|Estimated finish/);
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Overview", exact: true })).toHaveAttribute("aria-current", "page");
  await check(page, "wave-done");
  await expectLook(page, "wave-finished.png", [
    page.locator(".job-state"),
    page.locator("dl.facts div").filter({ hasText: /^(Speed|Started\d|Finished\d)/ }),
  ]);

  // Found again: from the overview's "Sent lately", the past waves' page, and the People list filtered to it.
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  const lately = page.getByRole("region", { name: "Sent lately" });
  await expect(lately.getByRole("listitem")).toHaveText([
    /^Invited 6 people Finished started \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
  ]);
  await lately.getByRole("link", { name: "All past waves" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Past waves" })).toBeVisible();
  const waves = page.getByRole("region", { name: "Waves of invitations, newest first" }).locator("tbody tr");
  await expect(waves).toHaveCount(1);
  await expect(waves.locator("td").nth(1)).toHaveText("Invited 6 people");
  await expect(waves.locator('td[data-label="Invited"]')).toHaveText("6");
  await expect(waves.locator('td[data-label="State"]')).toHaveText("Finished");
  await checkState(page, "past-waves");
  await waves.getByRole("link", { name: "Invited 6 people", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invited 6 people" })).toBeVisible();
  await page.getByRole("link", { name: "All waves" }).click();
  await waves.getByRole("link", { name: /^Who it invited/ }).click();
  await expect(page).toHaveURL(/\/admin\/people\?wave=\d+$/);
  await expect(page.getByRole("link", { name: /^p\d@example\.com$/ })).toHaveCount(6);
  const invited = await Promise.all(Array.from({ length: 6 }, (_, i) => smtp.waitFor(`p${i + 1}@example.com`)));
  expect(invited.map((mails) => mails.length)).toEqual([1, 1, 1, 1, 1, 1]);
});

test("the first page's banner while webhook deliveries fail; the log reads on a phone", async ({
  page,
  ownServer,
  smtp,
}) => {
  const receiver = await startWebhookReceiver(SECRET);
  receiver.state.answer = () => 500;
  receiver.state.body = () => "Internal Server Error";
  try {
    const server = await ownServer(env(smtp, { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET }), async (store) => {
      await store.db.query(
        `INSERT INTO waitlist_webhook_event (id, type, occurred_at, state, attempts, last_status, last_answer,
           last_error, last_attempt_at, next_attempt_at)
         SELECT 'msg_' || lpad(to_hex(g), 32, '0'), 'webhook.test', now() - interval '10 minutes', 'pending', 1, 500,
           'Internal Server Error', 'answered 500', now() - interval '9 minutes', now() + interval '1 hour'
         FROM generate_series(1, 3) AS g`,
      );
    });
    await signIn(page, smtp, server.url);
    const banner = page.getByRole("alert").filter({ hasText: "Webhook deliveries are failing" });
    // Seeded 10 minutes back before the server started: on a loaded machine its start and the sign-in can take
    // more than the minute that would make it 11, so the age is held to the minutes that can have passed.
    await expect(banner).toContainText(
      /Webhook deliveries are failing: the oldest waiting event is 1[0-2] minutes old\. 3 events waiting\. Last answer: answered 500: Internal Server Error\./,
    );
    await check(page, "webhook-banner");
    await banner.getByRole("link", { name: "Open the delivery log" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Webhooks", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.locator("tr.failing")).toHaveCount(3);
    await expect(page.locator("table.log-lines td.state")).toHaveText(["Failing", "Failing", "Failing"]);
    await expect(page.getByRole("region", { name: "Deliveries" }).locator(".job-state .badge")).toHaveText("Failing");
    await page.getByRole("link", { name: "Failed (0)" }).click();
    await expect(page.getByText("No failed events.")).toBeVisible();
    await page.getByRole("link", { name: "Waiting (3)" }).click();
    await expect(page.getByRole("link", { name: "Waiting (3)" })).toHaveAttribute("aria-current", "page");
    await check(page, "webhook-log");
    await expectLook(page, "webhook-log.png", [
      // The receiver's address has the port it was given.
      page.locator("table.log-lines td.when, table.log-lines td.next, #state ~ .job-state > code"),
    ]);

    // The receiver comes back: everything waiting goes now, in the background, once each.
    receiver.state.answer = () => 200;
    await page.getByRole("button", { name: "Deliver everything waiting now" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: /^(Delivering|Delivered) 3 waiting webhook events$/ }),
    ).toBeVisible();
    await expect(page.getByRole("status").last()).toHaveText(FINISHED, { timeout: 20_000 });
    await check(page, "webhook-drained");
    expect(receiver.acknowledged()).toHaveLength(3);
    expect(new Set(receiver.acknowledged().map((d) => d.id)).size).toBe(3);
    await page.goto(`${server.url}/admin`);
    await expect(page.getByText("Webhook deliveries are failing")).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
