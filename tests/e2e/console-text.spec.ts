/**
 * Who acted, and text that stays whole, in a real browser at both sizes, against a server of its own (the admin
 * token, and the product's INVITE_REDEEM_TOKEN): the product redeems a code, and the audit log names each credential
 * (the redemption token, an old redemption written as "token", the admin token, an admin by address, the command
 * line, a scheduled run). On the audit log and on people's pages, no ordinary word breaks inside itself, and every
 * address and identifier is on one line, whole in its title (cut with an ellipsis when it is longer than its box).
 * Axe and a screenshot on every state.
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { checkState, region, test } from "./console-support";
import { expect } from "./fixtures";

const TOKEN = "text-page-admin-token-0123456789abcdef01234";
const REDEEM_TOKEN = "text-page-redeem-token-0123456789abcdef0123";
const MAYA = "maya@noosphere.test";
const LONG = "maximilian.alexander-hamilton.the-third@operations.subdomain.noosphere-example.test";
const ids = { maya: 0, long: 0 };

/** Maya, confirmed, with her webhook events; a pending person with a long address; the log's older entries. */
async function seedText(store: Store) {
  const person = async (email: string, status: string, code: string) => {
    const [row] = await store.db.query<{ id: number }>(
      `INSERT INTO waitlist (email, status, created_at, confirmed_at, referral_code)
       VALUES ($1, $2, '2026-03-05T10:00:00Z', $3, $4) RETURNING id`,
      [email, status, status === "confirmed" ? "2026-03-05T10:06:00Z" : null, code],
    );
    return Number(row?.id);
  };
  ids.maya = await person(MAYA, "confirmed", "maya234567");
  ids.long = await person(LONG, "pending", "max2345678");
  for (const [id, type, at] of [
    ["msg_text_1", "waitlist.signed_up", "2026-03-05T10:00:00Z"],
    ["msg_text_2", "waitlist.confirmed", "2026-03-05T10:06:00Z"],
  ]) {
    await store.db.query(
      `INSERT INTO waitlist_webhook_event (id, type, waitlist_id, occurred_at, state, attempts)
       VALUES ($1, $2, $3, $4, 'delivered', 1)`,
      [id, type, ids.maya, at],
    );
  }
  const entry = (actor: string, action: string, details: Record<string, unknown>) =>
    store.db.query("INSERT INTO waitlist_audit (actor, action, details) VALUES ($1, $2, $3::jsonb)", [
      actor,
      action,
      JSON.stringify(details),
    ]);
  // Written before the redemption token had a name of its own.
  await entry("token", "invite.redeem", { outcome: "joined" });
  await entry(MAYA, "sign-in", { by: "link" });
  await entry(MAYA, "export", { via: "console", format: "csv", parts: 1, rows: 2 });
  await entry(LONG, "sign-in", { by: "link" });
  await entry("CLI", "export", { via: "cli", format: "csv", bytes: 100, confirmedOnly: true });
  await entry("scheduled", "reminders", { sent: 2, invites: 1 });
}

/**
 * Words of `scope` (split at spaces and after hyphens, where lines may break) drawn on more than one line, and
 * identifiers drawn taller than their line, or without their whole text in their title.
 */
async function brokenText(page: Page, scope = "body") {
  return page.locator(scope).evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of (node.textContent ?? "").matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(`word: ${word[0]}`);
      }
    }
    for (const ident of root.querySelectorAll<HTMLElement>(".ident")) {
      const line = Number.parseFloat(getComputedStyle(ident).lineHeight);
      if (ident.getBoundingClientRect().height > line * 1.5) broken.push(`identifier: ${ident.textContent}`);
      if (ident.title !== ident.textContent) broken.push(`title: ${ident.textContent}`);
    }
    return broken;
  });
}

test("the audit log names each credential; addresses stay whole on one line at both sizes", async ({
  page,
  ownServer,
}) => {
  test.setTimeout(90_000);
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN, INVITE_REDEEM_TOKEN: REDEEM_TOKEN }, seedText);
  // The product redeems a code that is no invitation: refused, and recorded as the redemption token's.
  const redeemed = await page.request.post(`${server.url}/api/invites/redeem`, {
    headers: { Authorization: `Bearer ${REDEEM_TOKEN}` },
    data: { code: "a".repeat(27) },
  });
  expect(redeemed.status()).toBe(404);

  await page.goto(`${server.url}/admin/audit`);
  await page.getByLabel("Admin token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  const entries = region(page, "What the team did, newest first").locator("tbody tr");
  await expect(entries.locator('td[data-label="Who"]')).toHaveText([
    "The admin token",
    "The product's redemption token",
    "A scheduled run",
    "The command line",
    LONG,
    MAYA,
    MAYA,
    "The product's redemption token",
  ]);
  await expect(entries.locator(".said")).toHaveText([
    "Signed in with the admin token.",
    "A code that is no invitation was tried: refused.",
    "Sent 2 reminders to confirm and 1 reminder of an invitation.",
    "Downloaded the list as CSV from the command line (confirmed sign-ups only).",
    "Signed in with a link sent by e-mail.",
    "Downloaded the list as CSV: 2 sign-ups in 1 part.",
    "Signed in with a link sent by e-mail.",
    "A person joined the product with their invitation code.",
  ]);
  // Addresses are identifiers: one line each, whole in their title.
  await expect(entries.locator('td[data-label="Who"] .ident')).toHaveText([LONG, MAYA, MAYA]);
  expect(await brokenText(page)).toEqual([]);
  await checkState(page, "audit log names");
});

test("a person's page keeps addresses, identifiers and words whole at both sizes", async ({ page, ownServer }) => {
  test.setTimeout(90_000);
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN }, seedText);
  await page.goto(`${server.url}/admin/person?id=${ids.maya}`);
  await page.getByLabel("Admin token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: MAYA, level: 1 })).toBeVisible();
  const events = region(page, "Webhooks").locator("tbody tr");
  await expect(events.locator('td[data-label="Event"]')).toHaveText([
    "Confirmed waitlist.confirmed",
    "Signed up waitlist.signed_up",
  ]);
  await expect(events.locator(".ident")).toHaveText(["waitlist.confirmed", "waitlist.signed_up"]);
  expect(await brokenText(page)).toEqual([]);
  await checkState(page, "person page whole");

  // A long address: its heading cut with an ellipsis on a phone, whole in its title.
  await page.goto(`${server.url}/admin/person?id=${ids.long}`);
  const heading = page.getByRole("heading", { level: 1 }).locator(".ident");
  await expect(heading).toHaveAttribute("title", LONG);
  expect(await brokenText(page)).toEqual([]);
  await checkState(page, "person page long address");
});
