/**
 * The overview's own answers below the browser, on an embedded Postgres: an old address of the list sent to the
 * People page, and the funnel's CSV (only with a session, named for its range, every group, formula-safe cells, from
 * visitors).
 * The funnel's tally itself: console-funnel.test.ts; the page in a browser: tests/e2e/console-overview.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

const HEADER =
  "signed_up_in,group,value,visitors,signed_up,signed_up_pct_of_visitors,confirmed,confirmed_pct_of_signed_up,invited,invited_pct_of_confirmed,joined,joined_pct_of_invited";

describe("the overview", () => {
  it("sends an old address of the list (a search, a page) to the People page, whole", async () => {
    const cookie = await signInByLink();
    const res = await call("/admin?q=ann%40example.com&page=2", { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/people?q=ann%40example.com&page=2");
  });
});

describe("the funnel's CSV", () => {
  it("answers only with a session; a file named for its range, every group, cells safe in a spreadsheet", async () => {
    expect((await call("/admin/funnel.csv?range=all")).status).toBe(401);
    await h.store.db.query("DELETE FROM waitlist");
    await h.store.db.query(
      `INSERT INTO waitlist (email, status, source, campaign, created_at) VALUES
        ('a@example.com', 'joined', '=HYPERLINK("http://evil.example")', 'spring', now()),
        ('b@example.com', 'confirmed', 'hn', NULL, now() - interval '40 days'),
        ('c@example.com', 'pending', 'hn', NULL, now() - interval '100 days')`,
    );
    const cookie = await signInByLink();
    const res = await call("/admin/funnel.csv?range=all", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="funnel-all-time-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect((await res.text()).split("\r\n")).toEqual([
      `${HEADER}`,
      // No visit counted yet: the visitors' cells are empty, not 0 (which would read as 0% conversion).
      "all time,everyone,everyone,,3,,2,66.7,1,50.0,1,100.0",
      "all time,source,hn,,2,,1,50.0,0,0.0,0,",
      `all time,source,"'=HYPERLINK(""http://evil.example"")",,1,,1,100.0,1,100.0,1,100.0`,
      "all time,medium,None recorded,,3,,2,66.7,1,50.0,1,100.0",
      "all time,campaign,None recorded,,2,,1,50.0,0,0.0,0,",
      "all time,campaign,spring,,1,,1,100.0,1,100.0,1,100.0",
      "all time,referring site,None recorded,,3,,2,66.7,1,50.0,1,100.0",
      "all time,share link,Came another way,,3,,2,66.7,1,50.0,1,100.0",
      "",
    ]);
    // 30 days (the default, and for anything else asked): the one who signed up today.
    for (const path of ["/admin/funnel.csv", "/admin/funnel.csv?range=7"]) {
      const recent = await call(path, { cookie });
      expect(recent.headers.get("content-disposition")).toMatch(/filename="funnel-30-days-/);
      expect((await recent.text()).split("\r\n")[1]).toBe("last 30 days,everyone,everyone,,1,,1,100.0,1,100.0,1,100.0");
    }
    const ninety = await (await call("/admin/funnel.csv?range=90", { cookie })).text();
    expect(ninety.split("\r\n")[1]).toBe("last 90 days,everyone,everyone,,2,,2,100.0,1,50.0,1,100.0");
  });

  it("starts at visitors, as the page does: each group's visitors and sign-ups as a share of them", async () => {
    await h.store.db.query("DELETE FROM waitlist");
    await h.store.db.query("DELETE FROM visit_rollup");
    await h.store.db.query(
      `INSERT INTO waitlist (email, status, source, campaign, created_at)
       VALUES ('a@example.com', 'joined', 'newsletter', 'spring', now())`,
    );
    // Today's site-wide rollups (page '*'): 8 visitors from hn, 2 with no source; 50 from 40 days ago, out of range.
    const today = "(now() AT TIME ZONE 'UTC')::date";
    await h.store.db.query(`INSERT INTO visit_rollup VALUES
      (${today}, '*', 'hn', NULL, NULL, NULL, false, 10, 8),
      (${today}, '*', NULL, NULL, NULL, NULL, false, 3, 2),
      (${today} - 40, '*', 'old', NULL, NULL, NULL, false, 60, 50)`);
    // Rollups written by hand: their tally made as migration 0028 made it from the rollups there.
    await h.store.db.query("SELECT visit_tally_refill()");
    const cookie = await signInByLink();
    expect((await (await call("/admin/funnel.csv", { cookie })).text()).split("\r\n")).toEqual([
      HEADER,
      "last 30 days,everyone,everyone,10,1,10.0,1,100.0,1,100.0,1,100.0",
      "last 30 days,source,hn,8,0,0.0,0,,0,,0,",
      "last 30 days,source,None recorded,2,0,0.0,0,,0,,0,",
      "last 30 days,source,newsletter,0,1,,1,100.0,1,100.0,1,100.0",
      "last 30 days,medium,None recorded,10,1,10.0,1,100.0,1,100.0,1,100.0",
      "last 30 days,campaign,None recorded,10,0,0.0,0,,0,,0,",
      "last 30 days,campaign,spring,0,1,,1,100.0,1,100.0,1,100.0",
      "last 30 days,referring site,None recorded,10,1,10.0,1,100.0,1,100.0,1,100.0",
      "last 30 days,share link,Came another way,10,1,10.0,1,100.0,1,100.0,1,100.0",
      "",
    ]);
  });
});
