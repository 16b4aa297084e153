/**
 * Referrals below the browser, as a person goes through them: sign up (by a share link or not), confirm by the
 * e-mail's link, and what counts: the line before and after, one mailbox once, throwaway domains, leaving, the
 * webhook events, REFERRALS_PER_DAY, a wave that follows the line, the exports. On an embedded Postgres and, when
 * 127.0.0.1:5432 answers, PostgreSQL directly and through Neon's HTTP protocol, with a real SMTP server
 * (tests/support/referrals-harness.ts). The status page: referrals-status.test.ts; the browser's side (no
 * JavaScript, axe, nothing kept on the device): tests/e2e/referrals.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { databaseKey } from "../../../src/server/crypto/keys";
import { previewWave } from "../../../src/server/invitations";
import { keyMailboxes } from "../../../src/server/referrals/mailbox-keys";
import { createWebhookStore } from "../../../src/server/webhooks";
import { backends } from "../../support/backends";
import { linkTo } from "../../support/consent-harness";
import { configOf, ORIGIN, referralsGround } from "../../support/referrals-harness";

describe.each(backends("referrals"))("on %s", (_name, available, open) => {
  const { state, call, handlers, json, join, confirm, page, text, leave, codeOf, wave, reset } = referralsGround(
    available,
    open,
  );

  describe.skipIf(!available)("the line and its referrals", () => {
    it("the place before and after a referral confirms, with REFERRAL_PLACES 0 and 1000", async () => {
      await reset();
      const one = await join("one@example.com");
      for (const name of ["two", "three", "four", "five"]) await join(`${name}@example.com`);
      const ann = await join("ann@example.com");
      expect(await text(ann)).toContain("6th of 6 waiting");
      expect(await text(ann)).toContain("0 confirmed referrals");
      const code = await codeOf(ann);

      // Signed up by Ann's link: nothing counts while the address is pending.
      expect((await call(handlers.signup, json({ email: "bea@example.com", referral: code }))).status).toBe(201);
      expect(await text(ann)).toContain("6th of 6 waiting");
      expect(await text(ann)).toContain("0 confirmed referrals");
      const bea = await confirm("bea@example.com");
      expect(await text(ann)).toContain("6th of 7 waiting");
      expect(await text(ann)).toContain("1 confirmed referral");
      expect(await text(bea)).toContain("7th of 7 waiting");

      // The same list, each counted referral moving its referrer 1,000 places: Ann is first, and says why.
      state.config = configOf(state.smtp.url, { REFERRAL_PLACES: "1000" });
      expect(await text(ann)).toContain("1st of 7 waiting");
      expect(await text(ann)).toContain(
        "Your referrals moved you up 5 places: by sign-up order alone you would be 6th.",
      );
      expect(await text(bea)).toContain("7th of 7 waiting");
      // Those Ann passed see why: the first to sign up is second, behind someone who signed up after them.
      expect(await text(one)).toContain("2nd of 7 waiting");
      expect(await text(one)).toContain("Referrals put 1 other person ahead of you.");
      // One place each: Ann stands where the fifth did, the fifth behind her.
      state.config = configOf(state.smtp.url, { REFERRAL_PLACES: "1" });
      expect(await text(ann)).toContain("5th of 7 waiting");
    });

    it("a mailbox counts once: +tags, Gmail's dots and googlemail.com, and the referrer's own", async () => {
      await reset();
      const ann = await join("ann.lee@gmail.com");
      const code = await codeOf(ann);
      await join("annlee+friends@googlemail.com", code); // Ann herself
      await join("bob+1@example.com", code);
      await join("Bob+2@Example.com", code); // Bob again
      await join("car.ol@gmail.com", code);
      await join("carol+x@googlemail.com", code); // Carol again
      await join("dan@example.com"); // on the list by himself first…
      await join("dan+ann@example.com", code); // …so his second spelling is nobody new
      expect(await text(ann)).toContain("2 confirmed referrals");
      const outcomes = await state.store.db.query<{ email: string; outcome: string }>(
        "SELECT w.email, r.outcome FROM waitlist_referral r JOIN waitlist w ON w.id = r.referred_id ORDER BY w.id",
      );
      expect(outcomes).toEqual([
        { email: "annlee+friends@googlemail.com", outcome: "self" },
        { email: "bob+1@example.com", outcome: "counted" },
        { email: "Bob+2@Example.com", outcome: "duplicate" },
        { email: "car.ol@gmail.com", outcome: "counted" },
        { email: "carol+x@googlemail.com", outcome: "duplicate" },
        { email: "dan+ann@example.com", outcome: "duplicate" },
      ]);
    });

    it("someone listed before referrals existed gets a mailbox key, and then another spelling counts nothing", async () => {
      await reset();
      const ann = await join("ann@example.com");
      // On the list before migration 0011, which added the column empty (and so before 0021, which added
      // address_key empty too: the sign-up writes both keys together, so no row has one without the other).
      await join("old.timer@gmail.com");
      await state.store.db.query(
        "UPDATE waitlist SET mailbox_key = NULL, address_key = NULL WHERE email = 'old.timer@gmail.com'",
      );
      const run = {
        db: state.store.db,
        dataKeys: state.store.dataKeys,
        root: await databaseKey(state.store),
      };
      expect(await keyMailboxes(run)).toEqual({ keyed: 1, unreadable: 0, done: true });
      expect(await keyMailboxes(run)).toEqual({ keyed: 0, unreadable: 0, done: true });
      await join("OldTimer+ann@googlemail.com", await codeOf(ann));
      expect(await text(ann)).toContain("0 confirmed referrals");
      const [row] = await state.store.db.query<{ outcome: string }>(
        "SELECT r.outcome FROM waitlist_referral r JOIN waitlist w ON w.id = r.referred_id WHERE lower(w.email) = $1",
        ["oldtimer+ann@googlemail.com"],
      );
      expect(row?.outcome).toBe("duplicate");
    });

    it("a throwaway domain signs up but counts nothing; an unknown or malformed code is no reason to refuse", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const code = await codeOf(ann);
      await join("someone@mailinator.com", code);
      await join("unknown-code@example.com", "zzzzzzzzzz");
      await join("malformed-code@example.com", "<script>");
      expect(await text(ann)).toContain("0 confirmed referrals");
      const rows = await state.store.db.query<{ email: string; outcome: string | null }>(
        "SELECT w.email, r.outcome FROM waitlist w LEFT JOIN waitlist_referral r ON r.referred_id = w.id ORDER BY w.id",
      );
      expect(rows).toEqual([
        { email: "ann@example.com", outcome: null },
        { email: "someone@mailinator.com", outcome: "disposable" },
        { email: "unknown-code@example.com", outcome: null },
        { email: "malformed-code@example.com", outcome: null },
      ]);
    });

    it("leaving takes a counted referral back at once", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const code = await codeOf(ann);
      const bea = await join("bea@example.com", code);
      await join("cat@example.com", code);
      expect(await text(ann)).toContain("2 confirmed referrals");
      // Bea leaves from her status page's button.
      const left = await leave(bea);
      expect(left.status).toBe(303);
      expect(left.headers.get("location")).toBe("/waitlist/removed");
      expect(await text(ann)).toContain("1 confirmed referral");
      // Cat by the removal link of her e-mail.
      const [mail] = await state.smtp.waitFor("cat@example.com");
      await call(
        handlers.links,
        new Request(linkTo(mail as NonNullable<typeof mail>, "/waitlist/leave"), {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        }),
      );
      expect(await text(ann)).toContain("0 confirmed referrals");
      expect((await page(bea)).response.status).toBe(404);
    });

    it("through the product's own handlers, each change is its webhook event: a referral counted and revoked", async () => {
      await reset();
      await state.store.db.query("DELETE FROM waitlist_webhook_event");
      const hooks = createWebhookStore(state.store.db);
      await hooks.setEnabled(true);
      try {
        const ann = await join("ann@example.com");
        const bea = await join("bea@example.com", await codeOf(ann));
        const left = await leave(bea);
        expect(left.status).toBe(303);
        const events = await state.store.db.query<{ event: string }>(
          `SELECT e.type || ' ' || coalesce(e.person->>'email', w.email) AS event
           FROM waitlist_webhook_event e LEFT JOIN waitlist w ON w.id = e.waitlist_id ORDER BY e.type, 1`,
        );
        expect(events.map((e) => e.event)).toEqual([
          "waitlist.confirmed ann@example.com",
          "waitlist.confirmed bea@example.com",
          "waitlist.referral_revoked ann@example.com",
          "waitlist.referred ann@example.com",
          "waitlist.removed bea@example.com",
          "waitlist.signed_up ann@example.com",
          "waitlist.signed_up bea@example.com",
        ]);
      } finally {
        await hooks.setEnabled(false);
        await state.store.db.query("DELETE FROM waitlist_webhook_event");
      }
    });

    it("at most REFERRALS_PER_DAY count per referrer and day; the rest are recorded", async () => {
      await reset({ REFERRALS_PER_DAY: "2" });
      const ann = await join("ann@example.com");
      const code = await codeOf(ann);
      for (const name of ["bea", "cat", "dee"]) await join(`${name}@example.com`, code);
      expect(await text(ann)).toContain("2 confirmed referrals");
      const outcomes = await state.store.db.query<{ outcome: string }>(
        "SELECT outcome FROM waitlist_referral ORDER BY referred_id",
      );
      expect(outcomes.map((r) => r.outcome)).toEqual(["counted", "counted", "over-limit"]);
      // A new day (UTC) opens new places.
      await state.store.db.query(
        "UPDATE waitlist SET referrals_day = referrals_day - 1 WHERE email = 'ann@example.com'",
      );
      await join("eve@example.com", code);
      expect(await text(ann)).toContain("3 confirmed referrals");
      // 0: counting paused, every one recorded.
      state.config = configOf(state.smtp.url, { REFERRALS_PER_DAY: "0" });
      await state.store.db.query(
        "UPDATE waitlist SET referrals_day = referrals_day - 1 WHERE email = 'ann@example.com'",
      );
      await join("fay@example.com", code);
      expect(await text(ann)).toContain("3 confirmed referrals");
      const [fay] = await state.store.db.query<{ outcome: string }>(
        "SELECT outcome FROM waitlist_referral r JOIN waitlist w ON w.id = r.referred_id WHERE w.email = 'fay@example.com'",
      );
      expect(fay?.outcome).toBe("over-limit");
    });

    it("a wave follows the line, the dry run says who moved up, and the invitation links the status page", async () => {
      await reset({ REFERRAL_PLACES: "1000" });
      await join("first@example.com");
      await join("second@example.com");
      const ann = await join("ann@example.com");
      await join("bea@example.com", await codeOf(ann));
      expect(await previewWave(state.store, 1, 0)).toMatchObject({ count: 1, movedUp: 0 });
      expect(await previewWave(state.store, 1, 1000)).toMatchObject({ count: 1, movedUp: 1 });
      expect(await previewWave(state.store, 2, 1000)).toMatchObject({ count: 2, movedUp: 1 });
      const before = state.smtp.messages.length;
      const report = await wave(1, { referralPlaces: 1000 });
      expect(report.invited).toBe(1);
      const invitation = state.smtp.messages.slice(before);
      expect(invitation.map((m) => m.to)).toEqual(["ann@example.com"]);
      const statusLink = linkTo(invitation[0] as NonNullable<(typeof invitation)[0]>, "/waitlist/status");
      expect(await text(statusLink)).toContain("You are invited");
      expect(await text(ann)).toContain("You are invited");
      // In: their page says nothing of referrals or places any more (status-in.ts).
      expect(await text(ann)).toContain("You’re in: welcome to Noosphere");
      expect(await text(ann)).not.toMatch(/referral|place/);
      expect(await text(await join("late@example.com"))).toContain("4th of 4 waiting");
    });
  });

  describe.skipIf(!available)("the exports", () => {
    it("end with the person's code, who referred them and how many of their referrals count", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const code = await codeOf(ann);
      await join("bea@example.com", code);
      await join("ann+me@example.com", code);
      const rows = (await state.store.list()).map((e) => [e.email, e.referral_code, e.referred_by, e.referrals]);
      expect(rows).toEqual([
        ["ann@example.com", code, null, 1],
        ["bea@example.com", expect.stringMatching(/^[0-9a-hjkmnp-tv-z]{10}$/), "ann@example.com", 0],
        ["ann+me@example.com", expect.stringMatching(/^[0-9a-hjkmnp-tv-z]{10}$/), "ann@example.com", 0],
      ]);
    });
  });
});
