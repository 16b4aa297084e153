/**
 * The webhook log in a real browser at both sizes, against a server of its own with 120 deliveries (delivered,
 * failing, failed) and a receiver that answers 500: 50 a page, newest first, Older and Newer and Newest through
 * them by keyset; one line a delivery (two on a phone) with its details a click away; times relative to the
 * server's clock ("3 h ago", "in 2 h"); each status said once ("500: Internal Server Error"); "Retry now" on one
 * line; the tries aligned under their heading; at 375 px the page bounded in height and never sideways. Axe on
 * every state, no script, a screenshot of each (in the test's output folder).
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { checkState, consoleEnv, signIn, test, webhooksTo } from "./console-support";
import { expect, isMobile } from "./fixtures";

// A server of its own, a sign-in by e-mail and four pages: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 180_000 });

/**
 * 120 events a second apart, three and a half hours ago (msg_…78 the newest): every third delivered (200 OK), every
 * third failed for good after 10 tries, the rest failing with 3 tries and their next in two and a half hours.
 */
async function seed(store: Store) {
  await store.db.query(
    `INSERT INTO waitlist_webhook_event (id, type, occurred_at, state, attempts, last_status, last_answer, last_error,
       last_attempt_at, next_attempt_at)
     SELECT 'msg_' || lpad(to_hex(g), 32, '0'),
       (ARRAY['waitlist.signed_up', 'waitlist.confirmed', 'waitlist.referral_revoked', 'webhook.test'])[1 + g % 4],
       now() - interval '3 hours 30 minutes' + g * interval '1 second',
       (ARRAY['failed', 'delivered', 'pending'])[1 + g % 3], (ARRAY[10, 1, 3])[1 + g % 3],
       CASE WHEN g % 3 = 1 THEN 200 ELSE 500 END,
       CASE WHEN g % 3 = 1 THEN 'OK' ELSE 'Internal Server Error' END,
       CASE WHEN g % 3 = 1 THEN NULL ELSE 'answered 500' END,
       now() - interval '3 hours', now() + interval '2 hours 30 minutes'
     FROM generate_series(1, 120) AS g`,
  );
}

const rows = (page: Page) => page.locator("table.log-lines tbody tr");
const id = (g: number) => `msg_${g.toString(16).padStart(32, "0")}`;
/** The webhook-id of each row shown, from its details. */
const shownIds = (page: Page) => rows(page).locator("details dd code").filter({ hasText: /^msg_/ }).allTextContents();

test("the webhook log: 50 a page, newest first, a line a delivery, its details a click away", async ({
  page,
  ownServer,
  smtp,
  receiver,
}) => {
  receiver.state.answer = () => 500;
  const server = await ownServer(consoleEnv(smtp, webhooksTo(receiver)), seed);
  await signIn(page, smtp, server.url);
  await page.goto(`${server.url}/admin/webhooks`);
  await expect(rows(page)).toHaveCount(50);
  expect((await shownIds(page)).slice(0, 3)).toEqual([id(120), id(119), id(118)]);
  // Newest first: failed for good, failing, delivered; each status said once, times against the server's clock.
  const first = rows(page).nth(0);
  await expect(first.locator("summary")).toHaveText("Someone signed up");
  await expect(first.locator("td.when")).toHaveText("3 h ago");
  await expect(first.locator("td.state")).toHaveText("Failed");
  await expect(first.locator("td.answer")).toHaveText("500: Internal Server Error");
  await expect(rows(page).nth(1).locator("td.state")).toHaveText("Failing");
  await expect(rows(page).nth(1).locator("td.next time")).toHaveText("in 2 h");
  await expect(rows(page).nth(2).locator("td.answer")).toHaveText("200: OK");
  await expect(page.locator("table.log-lines")).not.toContainText("answered");
  // "Retry now" on one line, and the tries' figures aligned right under their heading.
  const buttons = page.getByRole("button", { name: /^Retry now/ });
  await expect(buttons).toHaveCount(34);
  const heights = await buttons.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().height));
  expect(Math.max(...heights)).toBeLessThanOrEqual(34);
  if (!isMobile(page)) {
    const rights = await page
      .locator("table.log-lines th.n, table.log-lines td.n")
      .evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().right)));
    expect(new Set(rights).size).toBe(1);
  } else {
    // Two lines a delivery: 50 of them and the page around them in a bounded height.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(5_000);
  }
  await expect(page.getByRole("link", { name: "Newer" })).toHaveCount(0);
  await checkState(page, "webhook log newest");

  // Its details a click away: the type, the webhook-id, the exact time, the whole answer, the payload.
  await first.locator("summary").click();
  await expect(first.locator("details dl")).toContainText("waitlist.signed_up");
  await expect(first.locator("details dl")).toContainText(id(120));
  await expect(first.locator("details dl")).toContainText("Internal Server Error");
  await checkState(page, "webhook log details");

  // Older, Older (the last 20), Newer, Newest: by keyset, each page whole.
  await page.getByRole("link", { name: "Older" }).click();
  await expect(rows(page)).toHaveCount(50);
  expect((await shownIds(page))[0]).toBe(id(70));
  await page.getByRole("link", { name: "Older" }).click();
  await expect(rows(page)).toHaveCount(20);
  expect((await shownIds(page)).at(-1)).toBe(id(1));
  await expect(page.getByRole("link", { name: "Older" })).toHaveCount(0);
  await checkState(page, "webhook log last page");
  await page.getByRole("link", { name: "Newer" }).click();
  await expect(rows(page)).toHaveCount(50);
  expect((await shownIds(page))[0]).toBe(id(70));
  await page.getByRole("link", { name: "Newest" }).click();
  expect((await shownIds(page))[0]).toBe(id(120));

  // A state's tab pages the same way: 40 failed, one page.
  await page.getByRole("link", { name: "Failed (40)" }).click();
  await expect(rows(page)).toHaveCount(40);
  await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  await checkState(page, "webhook log failed");
});
