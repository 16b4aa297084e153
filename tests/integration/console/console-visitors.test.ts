/**
 * The console starts at visitors (issue 51): the overview's first figures (today's and 30 days' visitors and how many
 * signed up), the funnel by source from visitors (a source that sent visitors and no sign-up shown at 0), and the
 * chart's visitors per day. Views are counted through the visit function itself; sign-ups are rows of the list.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createVisitHandler } from "../../../src/server/visits/handler";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";
import { fakeContext } from "../../support/helpers";

openConsoleHarness();

const AGENT = (n: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:14${n}.0) Gecko/20100101 Firefox/14${n}.0`;

/** The page's words without tags, spaces folded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\s+/g, " ")
    .replace(/&#x27;/g, "'");

describe("the overview from visitors", () => {
  it("says today's and 30 days' visitors and conversion first, and the funnel by source starts at visitors", async () => {
    const visit = createVisitHandler({ store: async () => h.store, config: () => readConfig({}) });
    const view = (query: string, n: number) =>
      visit(
        new Request("http://localhost:4321/api/visit", {
          method: "POST",
          headers: { "Content-Type": "text/plain", "User-Agent": AGENT(n) },
          body: JSON.stringify({ page: "/", query, referrer: "" }),
        }),
        fakeContext(`192.0.2.${n}`),
      );
    await view("?utm_source=newsletter", 1);
    await view("?utm_source=newsletter", 1); // the same visitor again: one visitor
    await view("?utm_source=newsletter", 2);
    await view("?utm_source=forum", 3);
    await h.store.db.query("DELETE FROM waitlist");
    await h.store.db.query(
      "INSERT INTO waitlist (email, status, source, created_at) VALUES ('a@example.com', 'confirmed', 'newsletter', now())",
    );
    const page = text(await (await call("/admin", { cookie: await signInByLink() })).text());
    const first = page.indexOf("Visitors Today");
    expect(first).toBeGreaterThan(-1);
    expect(first).toBeLessThan(page.indexOf("The list"));
    expect(page).toContain("Today 3 visitors · 1 signed up (33%) Last 30 days 3 visitors · 1 signed up (33%)");
    expect(page).toContain("Visitors: 3 visitors in the range; 1 person signed up, 33% of them.");
    expect(page).toContain("Visitors in the range, counted without cookies or stored identifiers, and the people who");
    const bySource = page.slice(page.indexOf("By source"), page.indexOf("By medium"));
    expect(bySource).toContain("Source Visitors Signed up Confirmed Invited Joined");
    expect(bySource).toContain("newsletter 2 1 50% 1 100% 0 0% 0");
    expect(bySource).toContain("forum 1 0 0% 0 0 0");
    expect(page).toContain("Visitors a day (left-hand scale)");
  });

  it("with no visit counted, says so: no visitors column, line or 0% conversion", async () => {
    await h.store.db.query("DELETE FROM visit_rollup");
    await h.store.db.query("DELETE FROM visit_tally");
    await h.store.db.query("DELETE FROM waitlist");
    await h.store.db.query(
      "INSERT INTO waitlist (email, status, source, created_at) VALUES ('a@example.com', 'confirmed', 'newsletter', now())",
    );
    const page = text(await (await call("/admin", { cookie: await signInByLink() })).text());
    expect(page).toContain("Today No visits counted · 1 signed up Last 30 days No visits counted · 1 signed up");
    expect(page).toContain(
      "No visits counted yet: public page views are counted from the day this count was deployed.",
    );
    expect(page).toContain("No visits counted in this range yet, so the funnel starts at sign-ups.");
    const bySource = page.slice(page.indexOf("By source"), page.indexOf("By medium"));
    expect(bySource).toContain("Source Signed up Confirmed Invited Joined newsletter 1 1 100% 0 0% 0");
    expect(page).not.toContain("Visitors a day");
    expect(page).not.toMatch(/visitors? in the range/);
  });
});
