/**
 * A signed-out operator's deep link, in a real browser at both sizes, against a server of its own: a person's page,
 * People, Webhooks, a job's page and a download each show the sign-in form (not a dead end), and signing in, by the
 * admin token or by the e-mailed link, lands on the page first asked for (the download downloads). A target changed
 * to another site, in the form or in the link, lands on the Overview. Axe and a screenshot on every state.
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { ADMIN, checkState, consoleEnv, ids, seed, test } from "./console-support";
import { expect } from "./fixtures";

/** The seeded people, and their update sent to the end (its job's page still, not refreshing itself). */
async function seedFinished(store: Store) {
  await seed(store);
  await store.db.query("UPDATE waitlist_update SET finished_at = '2026-03-10T12:05:00Z'");
}

const TOKEN = "deep-link-token-0123456789abcdef0123456789";

/** The sign-in form, shown for `path` asked for without a session, saying where it leads. */
async function expectSignInFor(page: Page, name: string) {
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("Sign in to see that page: you'll be taken to it once you're in.");
  await checkState(page, `sign in for ${name}`);
}

async function signInByToken(page: Page) {
  await page.getByLabel("Admin token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You're signed out.")).toBeVisible();
}

test("with the admin token, a deep link signs in and lands on the page asked for", async ({ page, ownServer }) => {
  test.setTimeout(90_000);
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN }, seed);
  const pages: Array<[name: string, path: string, heading: string]> = [
    ["a person", `/admin/person?id=${ids.ada}`, "ada@example.com"],
    ["people", "/admin/people?status=pending", "People"],
    ["webhooks", "/admin/webhooks", "Webhooks"],
  ];
  for (const [name, path, heading] of pages) {
    await page.goto(`${server.url}${path}`);
    await expectSignInFor(page, name);
    await signInByToken(page);
    await expect(page).toHaveURL(`${server.url}${path}`);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await checkState(page, `landed on ${name}`);
    await signOut(page);
  }

  // A download link: the form, then the file itself.
  await page.goto(`${server.url}/admin/funnel.csv?range=all`);
  await expectSignInFor(page, "a download");
  await page.getByLabel("Admin token").fill(TOKEN);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^funnel-all-time-\d{4}-\d{2}-\d{2}\.csv$/);

  // A target changed in the form to another site: the Overview.
  await page.context().clearCookies();
  await page.goto(`${server.url}/admin/webhooks`);
  await page.locator('input[name="next"]').evaluate((input: HTMLInputElement) => {
    input.value = "//evil.test/admin";
  });
  await signInByToken(page);
  await expect(page).toHaveURL(`${server.url}/admin`);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});

test("by the e-mailed link, a deep link lands on the page asked for; a changed link on the Overview", async ({
  page,
  ownServer,
  smtp,
}) => {
  test.setTimeout(90_000);
  const server = await ownServer(consoleEnv(smtp), seedFinished);
  const pages: Array<[name: string, path: string, heading: string | RegExp]> = [
    ["webhooks by link", "/admin/webhooks", "Webhooks"],
    ["a job by link", "/admin/jobs?kind=update&id=1", /March news/],
  ];
  let mails = 0;
  for (const [name, path, heading] of pages) {
    await page.goto(`${server.url}${path}`);
    await expectSignInFor(page, name);
    await page.getByLabel("Email").fill(ADMIN);
    await page.getByRole("button", { name: "Send me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox", level: 1 })).toBeVisible();
    await checkState(page, `inbox for ${name}`);
    mails += 1;
    const link = new URL((await smtp.waitFor(ADMIN, mails))[mails - 1]?.links[0] ?? "");
    expect(link.searchParams.get("next")).toBe(path);
    await page.goto(link.href);
    await checkState(page, `the link's page for ${name}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${server.url}${path}`);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await checkState(page, `landed on ${name}`);
    await signOut(page);
  }

  // The link's target changed to another site: signed in all the same, on the Overview.
  await page.goto(`${server.url}/admin/people`);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  mails += 1;
  const link = new URL((await smtp.waitFor(ADMIN, mails))[mails - 1]?.links[0] ?? "");
  expect(link.searchParams.get("next")).toBe("/admin/people");
  link.searchParams.set("next", "/\\evil.test/admin");
  await page.goto(link.href);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${server.url}/admin`);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});
