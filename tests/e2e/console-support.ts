/**
 * What the console's browser tests share (console*.spec.ts; the updates suites take the mail environment, and
 * updates-console.spec.ts the screenshot comparison): the console's environment with e-mail on (and webhooks, to a
 * receiver of the test's own), the seeded people of the person and audit pages, signing in by link, what every
 * console page must be (its areas, no script, axe clean; or, for a page checked state by state, no sideways
 * scrolling and a screenshot of each state), opening a person from the People list, and a screenshot compared once
 * the font is in. Signing in by link, as a fixture: `signedInServer`; by the admin token: signInByToken.
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import type { TestSmtp } from "../support/smtp";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { test as base, expect, expectNoAxeViolations, type OwnServer, type Seed } from "./fixtures";

export const ADMIN = "ops@noosphere.test";
/** A test value (whsec_ and 32 bytes of base64), not a secret. */
export const WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwVeJMTd8T6fgy";

/** Starts a server of the test's own (as `ownServer` does) and signs the admin in on it by link. */
export type SignedInServer = (env: Record<string, string>, seed?: Seed) => ReturnType<OwnServer>;

/**
 * fixtures.ts's `test`, and for a test that takes `receiver` a real webhook receiver of its own on 127.0.0.1, which
 * verifies every signature by WEBHOOK_SECRET; the test says how it answers before anything is sent to it. A test
 * that takes `signedInServer` starts its server with the admin signed in by link, on `smtp`.
 */
export const test = base.extend<{ receiver: WebhookReceiver; signedInServer: SignedInServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's parameters; this one needs none
  receiver: async ({}, use) => {
    const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    await use(receiver);
    await receiver.close();
  },
  signedInServer: async ({ page, ownServer, smtp }, use) => {
    await use(async (env, seed) => {
      const server = await ownServer(env, seed);
      await signIn(page, smtp, server.url);
      return server;
    });
  },
});

/** E-mail on, through `smtp`, and ADMIN a team address: signing in by link works, invitations are not offered. */
export const mailEnv = (smtp: TestSmtp) => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Noosphere <hello@noosphere.test>",
  ADMIN_EMAILS: ADMIN,
});

/**
 * The console with e-mail on and invitations leading to the product's sign-up page. `extra` adds to it (webhooks)
 * or replaces a part of it.
 */
export const consoleEnv = (smtp: TestSmtp, extra: Record<string, string> = {}) => ({
  ...mailEnv(smtp),
  EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
  ...extra,
});

/** Webhooks on, to `receiver` (started with WEBHOOK_SECRET). */
export const webhooksTo = (receiver: WebhookReceiver) => ({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET });

/** The seeded people's ids, read back from the seed. */
export const ids = { ada: 0, cy: 0, pat: 0 };

/**
 * Ada: confirmed, with every answer (one with markup in it), sources, the terms, a yes to updates on her status
 * page, a counted referral (Cy) and an update sent to her. Cy: confirmed, came by Ada's share link. Pat: pending,
 * nothing but the address.
 */
export async function seed(store: Store) {
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
    updates_consent_words: "2e1a39c2c8aee653",
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

/**
 * Asks for a sign-in link, opens the `nth` one the admin received, and presses its button: signed in, on the
 * overview, marked so in the navigation.
 */
export async function signIn(page: Page, smtp: TestSmtp, base: string, nth = 1) {
  await page.goto(`${base}/admin`);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  const mails = await smtp.waitFor(ADMIN, nth);
  await page.goto(mails[nth - 1]?.links[0] ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Overview" }),
  ).toHaveAttribute("aria-current", "page");
}

/** Opens `base`'s console sign-in and signs in with the admin token `token`. */
export async function signInByToken(page: Page, base: string, token: string) {
  await page.goto(`${base}/admin`);
  await page.getByLabel("Admin token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A finished job's state, in words: it says when (the minute varies with the run). */
export const FINISHED = /^Finished at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/;

/** What every console page here must be: the areas, not one <script>, and no axe violation. */
export async function expectConsolePage(page: Page) {
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link")).toHaveText([
    "Overview",
    "People",
    "Updates",
    "Webhooks",
    "Audit log",
  ]);
  await expect(page.locator("script")).toHaveCount(0);
  await expectNoAxeViolations(page);
}

/**
 * A state of a page checked whole: axe, no sideways scrolling, no script, and a screenshot of the whole page in the
 * test's output folder, named for the state (its spaces as dashes) and the viewport's width.
 */
export async function checkState(page: Page, name: string) {
  await expectNoAxeViolations(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wide, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await page.locator("script").count()).toBe(0);
  const width = page.viewportSize()?.width ?? 0;
  // Every area of the navigation in view, none hidden past the edge of a phone.
  const rights = await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().right));
  expect(Math.max(0, ...rights), `${name}: an area of the navigation is cut off`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: base.info().outputPath(`${name.replaceAll(" ", "-")}-${width}.png`), fullPage: true });
}

/** Opens a person from the People list by clicking their address. */
export async function openFromList(page: Page, email: string, id: number) {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "People" }).click();
  await page.getByRole("link", { name: email, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/person\\?id=${id}$`));
  await expect(page.getByRole("heading", { name: email, level: 1 })).toBeVisible();
}

export const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

/** A screenshot compared with the stored one, once the font is in; `mask`: what differs from run to run. */
export async function expectLook(page: Page, name: string, mask: ReturnType<Page["locator"]>[] = []) {
  await page.evaluate(() => document.fonts.ready);
  await expect(page).toHaveScreenshot(name, { fullPage: true, mask });
}
