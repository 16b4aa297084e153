/**
 * The console's overview in a real browser at both sizes, each against a server of its own: calm (every row sealed,
 * nothing running, suppressions steady: one calm line first; 20 days of visitors, so the funnel starts at them) and
 * needing attention (rows in plain text, a paused wave, suppressions rising: each said first; no visit counted, said
 * so); then the visitors, the totals, the chart (bars by status, the running total, a wave's and an update's marks,
 * the visitors' line; its axis words at least 12 px at 375 px; its numbers in a table), the funnel by source from
 * visitors with its ranges and its CSV. Axe on each state, no sideways scrolling, no script; a screenshot of each
 * whole page (the test's output folder), and Playwright's comparison for the chart and the funnel, whose look is
 * the point and whose data is fixed (days counted back from the run's clock, which playwright.config.ts fixes to
 * 15 June 2026 at noon UTC, so the dates are the same on every day the suite runs, and compared too).
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { Store } from "../../src/server/app/store";
import { createStore } from "../../src/server/app/store";
import { readConfig } from "../../src/server/config";
import { checkState } from "./console-support";
import { expect, expectNoAxeViolations, type OwnServer, type Seed, test } from "./fixtures";

const TOKEN = "overview-token-0123456789abcdef0123456789";
const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
/** Set on every server here: without it the overview opens with that setting to make (issue 53). */
const SERVER_SECRET = "b3ZlcnZpZXctc2VydmVyLXNlY3JldC0wMTIzNDU2Nzg5YWJjZGVm";

// A server of its own per test, axe twice a size, downloads: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/**
 * Twelve sign-ups over the last 20 days (UTC noon, counted back from the run's fixed clock):
 * sources, media and campaigns, every status, two who came by a share link; a wave 3 days ago, an update 6 days ago.
 */
async function seedList(store: Store) {
  const people: Array<[string, string, string | null, string | null, number]> = [
    ["ada", "joined", "newsletter", "spring", 19],
    ["ben", "joined", "newsletter", "spring", 16],
    ["cy", "invited", "hn", null, 14],
    ["dot", "invited", "newsletter", "spring", 12],
    ["eli", "confirmed", "hn", null, 9],
    ["fay", "confirmed", "hn", null, 7],
    ["gil", "confirmed", null, null, 6],
    ["hal", "confirmed", "newsletter", null, 4],
    ["ivy", "pending", "hn", null, 3],
    ["jo", "confirmed", null, null, 2],
    ["kit", "pending", null, null, 1],
    ["lu", "pending", "newsletter", "spring", 0],
  ];
  for (const [name, status, source, campaign, daysAgo] of people) {
    await store.db.query(
      `INSERT INTO waitlist (name, email, status, source, medium, campaign, created_at)
       VALUES ($1, $1 || '@example.com', $2, $3, CASE WHEN $3 = 'newsletter' THEN 'email' END, $4,
         date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '12 hours'
           - make_interval(days => $5))`,
      [name, status, source, campaign, daysAgo],
    );
  }
  await store.db.query(
    `INSERT INTO waitlist_referral (referred_id, referrer_id, outcome)
     SELECT w.id, (SELECT id FROM waitlist WHERE name = 'ada'), 'counted' FROM waitlist w WHERE w.name IN ('hal', 'jo')`,
  );
  await store.db.query(
    `INSERT INTO waitlist_invite_wave (owner, size, invited, started_at, finished_at)
     VALUES ('done', 2, 2, now() - interval '3 days', now() - interval '3 days')`,
  );
  await store.db.query(
    `INSERT INTO waitlist_update (subject, body, author, created_at, finished_at, sent)
     VALUES ('Spring news', 'Hello', 'CLI', now() - interval '6 days', now() - interval '6 days', 7)`,
  );
}

/**
 * The site's visitors of the last 20 days, as the visit function's rollups keep them (page '*': the site): newsletter
 * (email, spring) 1-3 a day (39 in all), hn from news.ycombinator.com 1-4 a day (50), and 3 by a share link on each of
 * two days (6): 95 in the 30 days, 2 of them today.
 */
async function seedVisits(store: Store) {
  await store.db.query(
    `INSERT INTO visit_rollup (day, page, source, medium, campaign, referrer, by_share_link, views, visitors)
     SELECT (now() AT TIME ZONE 'UTC')::date - g, '*', 'newsletter', 'email', 'spring', NULL, false, g % 3 + 2, g % 3 + 1
       FROM generate_series(0, 19) g
     UNION ALL SELECT (now() AT TIME ZONE 'UTC')::date - g, '*', 'hn', NULL, NULL, 'news.ycombinator.com', false,
       g % 4 + 1, g % 4 + 1 FROM generate_series(0, 19) g
     UNION ALL SELECT (now() AT TIME ZONE 'UTC')::date - g, '*', NULL, NULL, NULL, NULL, true, 4, 3
       FROM unnest(ARRAY[2, 7]) g`,
  );
  // The console reads the tally: made from these rollups as migration 0028 made it.
  await store.db.query("SELECT visit_tally_refill()");
}

/** Calm: the list above and its visitors, every row sealed under DATA_KEY. */
async function seedCalm(store: Store) {
  await seedList(store);
  await seedVisits(store);
  const sealed = createStore(store.db, readConfig({ DATA_KEY }).dataKeys);
  while ((await sealed.sealNext(500)).read > 0);
}

/** Needing attention: the list in plain text, a wave paused, and four mailboxes suppressed in the last day. */
async function seedAttention(store: Store) {
  await seedList(store);
  await store.db.query(
    `INSERT INTO waitlist_invite_wave (owner, size, paused_reason, author)
     VALUES ('paused', 3, 'Paused by ops@noosphere.test.', 'CLI')`,
  );
  await store.db.query(
    `INSERT INTO mail_suppression (address_key, reason, evidence, source, suppressed_at)
     SELECT 'mailbox-' || g, (ARRAY['hard_bounce', 'hard_bounce', 'hard_bounce', 'complaint'])[g], '550', 'smtp',
       now() - make_interval(hours => g) FROM generate_series(1, 4) g`,
  );
}

/** A server of the test's own with `env` and the token (`seed` written first); signed in by the token, on the overview. */
async function openOverview(page: Page, ownServer: OwnServer, env: Record<string, string>, seed: Seed) {
  const server = await ownServer({ WAITLIST_ADMIN_TOKEN: TOKEN, SERVER_SECRET, ...env }, seed);
  await page.goto(`${server.url}/admin`);
  await page.getByLabel("Admin token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Overview" }),
  ).toHaveAttribute("aria-current", "page");
}

test.describe("the calm list, signed in by the token on the overview", () => {
  test.beforeEach(async ({ page, ownServer }) => {
    await openOverview(page, ownServer, { DATA_KEY }, seedCalm);
  });

  test("calm: one calm line first, then the totals, the chart and the funnel; each drawn as before", async ({
    page,
  }) => {
    const main = page.getByRole("main");
    // What needs the team comes first: here, nothing, said in one line right under the title.
    await expect(main.locator("h1 + p")).toHaveText("All calm: nothing is being sent and suppressions are steady.");
    // Then the visitors: today's and the 30 days', and how many signed up of them.
    await expect(page.getByRole("region", { name: "Visitors", exact: true }).locator(".totals")).toHaveText(
      /^Today\s*2 visitors · 1 signed up \(50%\)\s*Last 30 days\s*95 visitors · 12 signed up \(13%\)$/,
    );
    await expect(page.getByRole("region", { name: "The list" }).locator(".totals")).toHaveText(
      /Pending\s*3\s*pending: see them in the list\s*Confirmed\s*5.*Invited\s*2.*Joined\s*2.*In all\s*12/,
    );
    await expect(page.getByRole("link", { name: "See everyone" })).toHaveAttribute("href", "/admin/people");
    await expect(page.getByRole("img", { name: /^Sign-ups per day by what became of them/ })).toBeVisible();
    await expect(page.locator(".chart > p.note")).toHaveText(
      "12 sign-ups in the 30 days from 17 May 2026 to 15 Jun 2026; the most in a day: 1, on 27 May 2026. 12 people on the list in all.",
    );
    await checkState(page, "overview-calm");

    const growth = page.getByRole("region", { name: "Sign-ups per day" });
    const funnel = page.getByRole("region", { name: "How each source converts" });
    await expect(growth).toHaveScreenshot("overview-chart.png");
    await expect(funnel).toHaveScreenshot("overview-funnel.png");
  });

  test("the chart's words are at least 12 px at this width, and its numbers are in a table by status", async ({
    page,
  }) => {
    const words = page.locator("svg.chart-plot text");
    await expect(words).toHaveCount(7);
    const sizes = await words.evaluateAll((texts) =>
      texts.map((t) => ({
        text: t.textContent,
        size: Number.parseFloat(getComputedStyle(t).fontSize),
        height: t.getBoundingClientRect().height,
      })),
    );
    for (const { text, size, height } of sizes) {
      expect(size, text ?? "").toBeGreaterThanOrEqual(12);
      // Drawn at that size, not scaled down with the drawing: the box of a 12 px line is at least that tall.
      expect(height, text ?? "").toBeGreaterThanOrEqual(12);
    }
    // The left-hand scale is the day's most visitors (9, on 13 Jun), rounded up: 10.
    expect(sizes.map((s) => s.text)).toEqual(expect.arrayContaining(["10 a day", "5", "20 in all", "10"]));
    // The marks: the wave and the update, in the key and in the table.
    await expect(page.locator("ul.legend")).toHaveText(
      /Pending\s*Confirmed\s*Invited\s*Joined\s*On the list in all \(right-hand scale\)\s*Visitors a day \(left-hand scale\)\s*A wave went out\s*An update went out/,
    );
    await page.getByText("The numbers, day by day").click();
    const table = page.getByRole("table", { name: /^Sign-ups per day \(UTC\) by what became of them, last 30 days$/ });
    await expect(table.getByRole("row")).toHaveCount(31);
    // By status, then the day's visitors (2), the day's sign-ups and the list in all.
    await expect(table.getByRole("row").last()).toHaveText(/^15 Jun 2026\s*1\s*0\s*0\s*0\s*2\s*1\s*12\s*$/);
    await expect(table.getByRole("row").filter({ hasText: "a wave invited 2 people" })).toHaveCount(1);
    await expect(table.getByRole("row").filter({ hasText: "the update “Spring news” went to 7 people" })).toHaveCount(
      1,
    );
    await expectNoAxeViolations(page);
    const days = page.getByRole("region", { name: "Sign-ups per day" }).getByRole("link", { name: "90 days" });
    await days.click();
    await expect(days).toHaveAttribute("aria-current", "page");
    await expect(page.locator("svg.chart-plot rect[fill]")).toHaveCount(12 + 1);
  });

  test("the funnel by source: each range, and its CSV", async ({ page }) => {
    const funnel = page.getByRole("region", { name: "How each source converts" });
    await expect(funnel.locator(".funnel-visitors")).toHaveText(
      "Visitors: 95 visitors in the range; 12 people signed up, 13% of them.",
    );
    await expect(funnel.getByText(/^Everyone:/)).toHaveText(
      "Everyone: 12 people signed up → 9 confirmed (75%) → 4 invited (44%) → 2 joined (50%)",
    );
    // Most visitors first; each sign-up count with its share of the visitors, each step after with the step before's.
    const sources = funnel.getByRole("table", { name: "By source" });
    await expect(sources.getByRole("row")).toHaveText([
      /^Source\s*Visitors\s*Signed up\s*Confirmed\s*Invited\s*Joined$/,
      /^hn\s*50\s*4\s*8%\s*3\s*75%\s*1\s*33%\s*0\s*0%$/,
      /^newsletter\s*39\s*5\s*13%\s*4\s*80%\s*3\s*75%\s*2\s*67%$/,
      /^None recorded\s*6\s*3\s*50%\s*2\s*67%\s*0\s*0%\s*0$/,
    ]);
    await expect(funnel.getByRole("table", { name: "By share link" }).getByRole("row")).toHaveText([
      /How they came/,
      /^Came by a share link\s*6\s*2\s*33%\s*2\s*100%\s*0\s*0%\s*0$/,
      /^Came another way\s*89\s*10\s*11%\s*7\s*70%\s*4\s*57%\s*2\s*50%$/,
    ]);
    await page.getByRole("link", { name: "All time", exact: true }).click();
    await expect(page.getByRole("link", { name: "All time", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page).toHaveURL(/\/admin\?funnel=all#funnel$/);
    await expectNoAxeViolations(page);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download the funnel (all time) as CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("funnel-all-time-2026-06-15.csv");
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv.split("\r\n").slice(0, 4)).toEqual([
      "signed_up_in,group,value,visitors,signed_up,signed_up_pct_of_visitors,confirmed,confirmed_pct_of_signed_up,invited,invited_pct_of_confirmed,joined,joined_pct_of_invited",
      "all time,everyone,everyone,95,12,12.6,9,75.0,4,44.4,2,50.0",
      "all time,source,hn,50,4,8.0,3,75.0,1,33.3,0,0.0",
      "all time,source,newsletter,39,5,12.8,4,80.0,3,75.0,2,66.7",
    ]);
    expect(csv).toContain("all time,share link,Came by a share link,6,2,33.3,2,100.0,0,0.0,0,\r\n");
  });
});

test("needing attention: plain text, a paused wave and suppressions rising, said first", async ({
  page,
  ownServer,
}) => {
  await openOverview(page, ownServer, {}, seedAttention);
  const first = page.locator("main > h1 + .attention");
  await expect(first.getByRole("status").first()).toHaveText(/^Sign-ups are stored as plain text/);
  await expect(first.getByText(/^Suppressions are rising/)).toHaveText(
    "Suppressions are rising: 4 mailboxes suppressed in the last 24 hours (3 hard bounces, 1 spam complaint), against none in the 7 days before. Nothing is sent to them any more; look at the latest update's bounces and complaints before the next send. Open Updates",
  );
  const underWay = first.getByRole("region", { name: "Under way" });
  await expect(underWay).toContainText("Paused");
  await expect(page.locator("p.calm")).toHaveCount(0);
  // No visit counted in this server's life: said so, with no 0% conversion anywhere and no flat visitors line.
  await expect(page.getByRole("region", { name: "Visitors", exact: true }).locator(".totals")).toHaveText(
    /^Today\s*No visits counted · 1 signed up\s*Last 30 days\s*No visits counted · 12 signed up$/,
  );
  await expect(page.locator(".funnel-visitors")).toHaveText(
    "No visits counted in this range yet, so the funnel starts at sign-ups.",
  );
  await expect(page.getByRole("table", { name: "By source" }).getByRole("row").first()).toHaveText(
    /^Source\s*Signed up\s*Confirmed\s*Invited\s*Joined$/,
  );
  await expect(page.locator("ul.legend")).not.toContainText("Visitors");
  await checkState(page, "overview-attention");
});
