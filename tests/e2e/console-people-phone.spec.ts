/**
 * The People page's first screen and its length, in a real browser at both sizes, against a server of its own with
 * 30 people: the search first, with its own button on its line; on a phone a "Filters" disclosure after it and the
 * list right after that (its first row within the first screen), each person two lines (the address and the status
 * badge, then the date, the source and the referrals), so a page of 25 takes under 1,600 px; the filters open from
 * their disclosure and say how many are in use. On a wide screen the filters show open and the list is a table with
 * its column headings. Axe on every state, no sideways scrolling, no script, a screenshot of each (in the test's
 * output folder).
 */
import type { Store } from "../../src/server/app/store";
import { checkState, consoleEnv, test } from "./console-support";
import { expect, isMobile } from "./fixtures";

// A server of its own and a sign-in by e-mail: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 120_000 });

const STATUSES = ["confirmed", "pending", "invited", "joined"];

/** 30 people an hour apart, named, from three sources (one with a long campaign name), some with referrals. */
async function seed(store: Store) {
  await store.db.query(
    `INSERT INTO waitlist (email, name, status, source, medium, campaign, referrals, created_at)
     SELECT 'person' || g || '@example.com', 'Person ' || g, ($1::text[])[1 + g % 4],
       (ARRAY['newsletter', 'hn', NULL])[1 + g % 3], CASE WHEN g % 3 = 0 THEN 'email' END,
       CASE WHEN g % 3 = 0 THEN 'a-spring-launch-campaign-with-a-long-name' END, g % 5,
       timestamptz '2026-03-01T09:30:00Z' + g * interval '1 hour'
     FROM generate_series(1, 30) AS g`,
    [STATUSES],
  );
}

test("the search and Filters first, then the list, a person in two lines on a phone", async ({
  page,
  smtp,
  signedInServer,
}) => {
  const server = await signedInServer(consoleEnv(smtp), seed);
  await page.goto(`${server.url}/admin/people`);
  const rows = page.locator("table.people tbody tr");
  await expect(rows).toHaveCount(25);
  // The search first, with its own button on its line: searching opens nothing.
  const field = await page.getByLabel("Search by address").boundingBox();
  const go = await page.getByRole("button", { name: "Search", exact: true }).boundingBox();
  expect(Math.round((go?.y ?? 0) + (go?.height ?? 0))).toBe(Math.round((field?.y ?? 0) + (field?.height ?? 0)));
  const status = page.getByLabel("Status");
  const table = page.locator("table.people");
  if (isMobile(page)) {
    // The filters wait behind their disclosure; the first person is on the first screen.
    await expect(status).toBeHidden();
    const first = await rows.first().boundingBox();
    expect(first?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(812);
    expect((await table.boundingBox())?.height ?? Number.POSITIVE_INFINITY).toBeLessThan(1_600);
    // Two lines a person: none taller than a 44 px checkbox and two lines of text.
    const heights = await rows.evaluateAll((all) => all.map((row) => row.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThanOrEqual(64);
    await expect(rows.first()).toContainText("person30@example.com");
    await expect(rows.first()).toContainText("2026-03-02 15:30");
    await expect(rows.first()).toContainText("0 referrals");
  } else {
    await expect(status).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText([
      "Select",
      "Signed up (UTC)",
      "Person",
      "Status",
      "Source",
      "Referring site",
      "Referrals",
    ]);
    await expect(rows.first().locator("td.n")).toHaveText("0", { useInnerText: true });
  }
  await checkState(page, "people page of 25");

  // The filters open from their disclosure, and say how many are in use once chosen.
  if (isMobile(page)) await page.getByText("Filters", { exact: true }).click();
  await status.selectOption("confirmed");
  await page.getByLabel("Source").selectOption("hn");
  await checkState(page, "people filters open");
  await page.getByRole("button", { name: "Show people" }).click();
  expect(new URL(page.url()).search).toBe("?status=confirmed&source=hn");
  await expect(page.getByRole("heading", { level: 2, name: "3 people match" })).toBeVisible();
  if (isMobile(page)) {
    await expect(page.getByText("Filters (2 in use)", { exact: true })).toBeVisible();
    await expect(status).toBeHidden();
  } else {
    await expect(status).toHaveValue("confirmed");
  }
  await checkState(page, "people filtered");
});
