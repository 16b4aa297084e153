/**
 * A first deploy in a real browser at 375 and 1280 px (issue 53, point 4): with no variables at all the site takes a
 * sign-up and /admin says how to get in; signed in with only the admin token, the Overview opens with the required
 * settings still to make, in doctor's words, each linking to docs/deploying.md. Axe clean, no sideways scrolling, no
 * script. Nothing here shows a date: the overview's chart is asserted by other specs.
 */
import { checkState } from "./console-support";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const TOKEN = "first-deploy-token-0123456789abcdef01234";
const DOCS = "https://github.com/noosphere-app/noosphere-site/blob/main/docs/deploying.md";

// A server of its own per test, axe at each step: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 120_000 });

test("nothing set: a sign-up is taken, and /admin says how to get in", async ({ page, ownServer }) => {
  const server = await ownServer();
  const signup = await page.request.post(`${server.url}/api/waitlist`, {
    data: { email: "first@example.com", termsAccepted: true },
    headers: { Origin: server.url },
  });
  expect(signup.status()).toBe(201);

  await page.goto(`${server.url}/admin`);
  await expect(page.getByRole("heading", { level: 1, name: "The console is off" })).toBeVisible();
  await expect(page.getByText("The site takes sign-ups meanwhile.")).toBeVisible();
  await expect(page.getByRole("link", { name: "signing in to the console" })).toHaveAttribute(
    "href",
    `${DOCS}#signing-in-to-the-console`,
  );
  await expect(page.getByRole("link", { name: "the first deploy" })).toHaveAttribute(
    "href",
    `${DOCS}#the-first-deploy-step-by-step`,
  );
  await expectNoAxeViolations(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wide).toBeLessThanOrEqual(0);
  expect(await page.locator("script").count()).toBe(0);
});

test("only the admin token set: the Overview opens with what is left to set", async ({ page, ownServer }) => {
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN });
  await page.goto(`${server.url}/admin`);
  await page.getByLabel("Admin token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  const first = page.locator("main > h1 + .attention");
  await expect(first.locator("p").first()).toHaveText(
    "Finish setting up this site: until these are set, the console opens with them.",
  );
  const findings = first.getByRole("status");
  await expect(findings.nth(0)).toHaveText(
    "Invitation codes on status pages are off, and a deployed site's background jobs (updates, waves) do not start; set SERVER_SECRET to `openssl rand -base64 32`. How to set SERVER_SECRET",
  );
  await expect(findings.nth(1)).toHaveText(/^Sign-ups are stored as plain text: .* How to set DATA_KEY$/);
  await expect(findings.nth(0).getByRole("link")).toHaveAttribute("href", `${DOCS}#server_secret`);
  await expect(findings.nth(1).getByRole("link")).toHaveAttribute("href", `${DOCS}#data_key`);
  // The plain-text warning is that same finding: said once.
  await expect(page.getByText(/^Sign-ups are stored as plain text/)).toHaveCount(1);
  await expect(page.locator("main")).not.toContainText(TOKEN);
  await checkState(page, "first-deploy-overview");
});
