/**
 * The console's People page in a real browser at both sizes, against a server of its own and a real SMTP server on
 * 127.0.0.1: reach it from the navigation; filter by status, source, medium, referring site, updates choice and the
 * suppression list (each shown as chosen, each a chip that takes it away, Clear filters); sort by date both ways and
 * by referrals; status as badges, referrals in a column of their own; then choose rows and Invite selected (the
 * confirmation names how many, lists them, says why the pending one is left out; the e-mails arrive; the list
 * filtered to that wave follows) and Remove selected (asks "for good?", then they are gone). Axe on every state, no
 * sideways scrolling, no script; the filtered list's look compared at 375 and 1280 px
 * (tests/e2e/console-people.spec.ts-snapshots/; `--update-snapshots` after a change of design).
 * Below the browser: tests/integration/console/console-list.test.ts and console-people.test.ts.
 */
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { ADMIN, checkState, consoleEnv, test } from "./console-support";
import { expect, isMobile } from "./fixtures";

// A server of its own, a sign-in by e-mail and a wave: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/**
 * Eight people a day apart (ada first), fixed dates so the page reads the same every run: status, source, medium,
 * referring site, updates choice, counted referrals. Cat's mailbox is suppressed.
 */
const PEOPLE: Array<[string, string, string | null, string | null, string | null, boolean | null, number]> = [
  ["ada", "confirmed", "newsletter", "email", null, true, 4],
  ["bob", "confirmed", "hn", "social", "news.ycombinator.com", false, 0],
  ["cat", "confirmed", "newsletter", "email", null, true, 1],
  ["dan", "pending", "newsletter", null, null, null, 0],
  ["eve", "invited", "hn", null, "t.co", true, 2],
  ["fay", "confirmed", null, null, null, null, 0],
  ["gus", "joined", "newsletter", "email", null, false, 0],
  ["hal", "confirmed", "newsletter", null, "t.co", true, 0],
];

async function seed(store: Store) {
  for (const [i, [name, status, source, medium, referrer, updates, referrals]] of PEOPLE.entries()) {
    await store.db.query(
      `INSERT INTO waitlist (email, name, status, source, medium, referrer, updates_consent, referrals, mailbox_key,
         address_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, timestamptz '2026-03-01T09:30:00Z' + $10 * interval '1 day')`,
      [
        `${name}@example.com`,
        name[0]?.toUpperCase() + name.slice(1),
        status,
        source,
        medium,
        referrer,
        updates,
        referrals,
        `mk-${name}`,
        i,
      ],
    );
  }
  await store.db.query(
    "INSERT INTO mail_suppression (address_key, reason, evidence, source) VALUES ('mk-cat', 'hard_bounce', '550', 'smtp')",
  );
}

/** The test's own server's address. */
let site = "";

// Each test: a server of its own on these people, the admin signed in by link, then on the People page by the
// navigation.
test.beforeEach(async ({ page, smtp, signedInServer }) => {
  site = (await signedInServer(consoleEnv(smtp), seed)).url;
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
});

/** On a phone the filters wait behind their disclosure: opened before choosing one. */
async function openFilters(page: Page) {
  if (isMobile(page)) await page.locator("details.filters > summary").click();
}

/** The people listed, by the address each row links to its page with. */
const listed = (page: Page) => page.locator("table.people td.who a").allTextContents();
const names = (...people: string[]) => people.map((p) => `${p}@example.com`);

test("filters and sorts find people; chips and Clear filters take them away", async ({ page }) => {
  await expect(page.getByRole("link", { name: "People" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { level: 2, name: "8 people" })).toBeVisible();
  expect(await listed(page)).toEqual(names("hal", "gus", "fay", "eve", "dan", "cat", "bob", "ada"));
  await expect(page.locator("table.people .badge")).toHaveText([
    "Confirmed",
    "Joined",
    "Confirmed",
    "Invited",
    "Pending",
    "Confirmed",
    "Confirmed",
    "Confirmed",
  ]);
  await checkState(page, "everyone");

  // Status and source together: each select keeps its choice, each shows as a chip.
  await openFilters(page);
  await page.getByLabel("Status").selectOption("confirmed");
  await page.getByLabel("Source").selectOption("newsletter");
  await page.getByRole("button", { name: "Show people" }).click();
  expect(new URL(page.url()).search).toBe("?status=confirmed&source=newsletter");
  await expect(page.getByLabel("Status")).toHaveValue("confirmed");
  await expect(page.getByLabel("Source")).toHaveValue("newsletter");
  await expect(page.getByRole("heading", { level: 2, name: "3 people match" })).toBeVisible();
  expect(await listed(page)).toEqual(names("hal", "cat", "ada"));
  const chips = page.getByRole("list", { name: "Filters in use" }).getByRole("link");
  await expect(chips).toHaveText([
    "Status: Confirmed × (remove this filter)",
    "Source: newsletter × (remove this filter)",
  ]);
  // The referrals in a column of their own, a number only.
  await expect(page.locator("table.people td.n")).toHaveText(
    isMobile(page) ? ["0 referrals", "1 referral", "4 referrals"] : ["0", "1", "4"],
    { useInnerText: true },
  );
  await checkState(page, "filtered");
  await expect(page).toHaveScreenshot("people-filtered.png", { fullPage: true });

  // Most referrals first, then oldest first.
  await openFilters(page);
  await page.getByLabel("Sort").selectOption("referrals");
  await page.getByRole("button", { name: "Show people" }).click();
  expect(await listed(page)).toEqual(names("ada", "cat", "hal"));
  await openFilters(page);
  await page.getByLabel("Sort").selectOption("oldest");
  await page.getByRole("button", { name: "Show people" }).click();
  expect(await listed(page)).toEqual(names("ada", "cat", "hal"));
  await checkState(page, "oldest first");

  // A chip takes its filter away and keeps the rest.
  await page.getByRole("link", { name: /^Source: newsletter/ }).click();
  expect(await listed(page)).toEqual(names("ada", "bob", "cat", "fay", "hal"));
  await expect(page.getByLabel("Source")).toHaveValue("");

  // Medium, referring site, updates, suppression; none recorded; nobody.
  const show = async (query: string) => {
    await page.goto(`${site}/admin/people?${query}`);
    return listed(page);
  };
  expect(await show("medium=email")).toEqual(names("gus", "cat", "ada"));
  expect(await show("referrer=t.co&sort=oldest")).toEqual(names("eve", "hal"));
  expect(await show("updates=no")).toEqual(names("gus", "bob"));
  expect(await show("updates=never")).toEqual(names("fay", "dan"));
  expect(await show("suppressed=yes")).toEqual(names("cat"));
  await expect(page.getByLabel("Suppression")).toHaveValue("yes");
  expect(await show("source=+")).toEqual(names("fay"));
  await expect(page.getByLabel("Source")).toHaveValue(" ");
  await checkState(page, "none recorded");
  expect(await show("status=joined&source=hn")).toEqual([]);
  await expect(page.getByText("Nobody matches these filters.")).toBeVisible();
  await checkState(page, "nobody");
  await openFilters(page);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(`${site}/admin/people`);
  expect(await listed(page)).toHaveLength(8);
});

test("Invite selected asks first, leaves the pending and the suppressed out, then invites", async ({ page, smtp }) => {
  await page.goto(`${site}/admin/people?source=newsletter`);
  for (const who of ["ada", "cat", "dan"])
    await page.getByRole("checkbox", { name: `Select ${who}@example.com` }).check();
  await page.getByRole("button", { name: "Invite selected" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invite 1 person?" })).toBeVisible();
  await expect(page.getByRole("region", { name: "They get their invitation now" }).locator("li > a")).toHaveText(
    names("ada"),
  );
  // Cat's address is suppressed: named before the button, not counted among those invited.
  const left = page.getByRole("region", { name: "Not invited: 2 people" });
  await expect(left.locator("li")).toHaveText([
    /^dan@example\.com\s*Pending.*Hasn't confirmed their address yet, so can't be invited\.$/,
    /^cat@example\.com\s*Confirmed.*On the suppression list \(a bounce or a complaint\), so no invitation can reach them\.$/,
  ]);
  await checkState(page, "invite confirmation");
  // Cancel goes back to the list as it was.
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(`${site}/admin/people?source=newsletter`);
  for (const who of ["ada", "cat", "dan"])
    await page.getByRole("checkbox", { name: `Select ${who}@example.com` }).check();
  await page.getByRole("button", { name: "Invite selected" }).click();
  await page.getByRole("button", { name: "Invite 1 person" }).click();

  await expect(page.getByRole("status")).toHaveText(
    "Invited 1 of the 1 person you chose: their e-mails were accepted.",
  );
  await expect(
    page.getByRole("link", { name: /^Invited by the wave of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/ }),
  ).toBeVisible();
  expect(await listed(page)).toEqual(names("ada"));
  await expect(page.locator("table.people .badge")).toHaveText(["Invited"]);
  await smtp.waitFor("ada@example.com");
  expect(
    smtp.messages
      .map((m) => m.to)
      .filter((to) => to !== ADMIN)
      .sort(),
  ).toEqual(names("ada"));
  await checkState(page, "invited");
});

test("Remove selected asks for good, then they are gone", async ({ page }) => {
  // Select all on this page, then only two of them.
  await page.getByRole("link", { name: "Select all 8 on this page" }).click();
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(8);
  await page.getByRole("link", { name: "Clear the selection" }).click();
  await page.getByRole("checkbox", { name: "Select bob@example.com" }).check();
  await page.getByRole("checkbox", { name: "Select fay@example.com" }).check();
  await page.getByRole("button", { name: "Remove selected" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Remove 2 people for good?" })).toBeVisible();
  await expect(page.getByRole("region", { name: "This cannot be undone" }).locator("li > a")).toHaveText(
    names("fay", "bob"),
  );
  await checkState(page, "remove confirmation");
  await page.getByRole("button", { name: "Remove 2 people for good" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Removed 2 people: their addresses, everything they sent and their links are deleted.",
  );
  await expect(page.getByRole("heading", { level: 2, name: "6 people" })).toBeVisible();
  expect(await listed(page)).toEqual(names("hal", "gus", "eve", "dan", "cat", "ada"));
  await checkState(page, "removed");
});
