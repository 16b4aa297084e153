/**
 * What the overview shows of referrals: the counted ones in all and in 30 days, the top referrers of those 30 days
 * (a ring shows there), each a link to the list found by their address; and the share links in the funnel (who came
 * by one, as their referral rows say). Rows are written by SQL, as they would stand.
 */
import { expect, it } from "vitest";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

it("the overview shows counted referrals, the top referrers of 30 days, and the share links' funnel", async () => {
  await h.store.db.query("DELETE FROM waitlist");
  await h.store.db.query(
    `INSERT INTO waitlist (email, status, referral_code, referrals) VALUES
      ('ann@example.com', 'confirmed', 'ann2345678', 2), ('bob@example.com', 'confirmed', 'bob2345678', 1),
      ('cat@example.com', 'confirmed', 'cat2345678', 0), ('dee@example.com', 'confirmed', 'dee2345678', 0),
      ('eve@example.com', 'invited', 'eve2345678', 0), ('fay@example.com', 'pending', 'fay2345678', 0)`,
  );
  const id = async (email: string) =>
    (await h.store.db.query<{ id: number }>("SELECT id FROM waitlist WHERE email = $1", [email]))[0]?.id;
  const refer = (who: number | undefined, by: number | undefined, outcome: string, days: number) =>
    h.store.db.query(
      `INSERT INTO waitlist_referral (referred_id, referrer_id, outcome, counted_at)
       VALUES ($1, $2, $3, CASE WHEN $3 = 'counted' THEN now() - make_interval(days => $4) END)`,
      [who, by, outcome, days],
    );
  await refer(await id("cat@example.com"), await id("ann@example.com"), "counted", 1);
  await refer(await id("dee@example.com"), await id("ann@example.com"), "counted", 2);
  await refer(await id("eve@example.com"), await id("bob@example.com"), "counted", 40);
  await refer(await id("fay@example.com"), await id("bob@example.com"), "pending", 0);

  const html = await (await call("/admin", { cookie: await signInByLink() })).text();
  const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  if (process.env["SHOW_HTML"]) console.log(text);
  expect(text).toContain("Referrals 3 referrals counted in all · 2 in the last 30 days");
  expect(text).toContain("Top referrers, last 30 days Referrer Counted ann@example.com 2 ");
  expect(html).toContain('<a href="/admin/people?q=ann%40example.com">ann@example.com</a>');
  expect(text).not.toContain("bob@example.com 1 ");
  // Four came by a share link (their referral rows), two another way; of the four, three confirmed, one invited.
  expect(text).toContain(
    "By share link How they came Signed up Confirmed Invited Joined Came by a share link 4 3 75% 1 33% 0 0% Came another way 2 2 100% 0 0% 0 ",
  );
});
