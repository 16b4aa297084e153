/**
 * What the console shows of referrals: the counted ones in all and in 30 days, the top referrers of those 30 days
 * (a ring shows there), and each person's code and count in the list. Rows are written by SQL, as they would stand.
 */
import { expect, it } from "vitest";
import { call, h, openConsoleHarness, signInByLink } from "../../support/console-harness";

openConsoleHarness();

it("the dashboard shows counted referrals, the top referrers of 30 days, and each person's code and count", async () => {
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
  expect(text).toContain("Referrals 3 counted in all · 2 in the last 30 days");
  expect(text).toContain("Top referrers, last 30 days Referrer Code Counted ann@example.com ann2345678 2 ");
  expect(text).not.toContain("bob@example.com bob2345678 1 ");
  expect(text).toContain("ann@example.com Confirmed 2 · code ann2345678");
  expect(text).toContain("bob@example.com Confirmed 1 · code bob2345678");
});
