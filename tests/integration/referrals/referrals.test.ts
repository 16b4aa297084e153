/**
 * Referrals and the status page below the browser, as a person goes through them: sign up (by a share link or
 * not), confirm by the e-mail's link, land on the status page, get its link again. On an embedded Postgres and,
 * when 127.0.0.1:5432 answers, PostgreSQL directly and through Neon's HTTP protocol, with a real SMTP server.
 * The browser's side (no JavaScript, axe, nothing kept on the device): tests/e2e/referrals.spec.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import type { Store } from "../../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../../src/server/config";
import { databaseKey } from "../../../src/server/crypto/keys";
import { previewWave, runWave } from "../../../src/server/invitations";
import { createRedeemHandler } from "../../../src/server/invitations/redeem-handler";
import { createLinksHandler } from "../../../src/server/links/handler";
import { createStatusLinkHandler } from "../../../src/server/referrals/link-handler";
import { keyMailboxes } from "../../../src/server/referrals/mailbox-keys";
import { createStatusHandler } from "../../../src/server/referrals/status-handler";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { createWebhookStore } from "../../../src/server/webhooks";
import { backends, type OpenedStore } from "../../support/backends";
import { linkTo } from "../../support/consent-harness";
import { startSmtp, type TestSmtp } from "../../support/smtp";

const ORIGIN = "http://localhost:4321";
const dir = mkdtempSync(join(tmpdir(), "status-page-"));
const file = (name: string, html: string) => {
  writeFileSync(join(dir, name), html);
  return pathToFileURL(join(dir, name));
};
/** Stand-in for the build: the header's waitlist button, as built, and the status page's slot. */
const BARE_STATUS = `<!doctype html><header><a href="/join" data-waitlist-open class="rounded-full px-4">Join the Waitlist</a></header><main><section id="status-body" aria-label="Your status">This status link doesn't work</section></main>`;
const PAGES = { status: file("status.html", BARE_STATUS) };

/** The product's bearer token for redeeming codes (32 characters at least). */
const REDEEM_TOKEN = "redeem-token-for-the-status-page-0123456789";
const configOf = (smtpUrl: string, extra: Record<string, string> = {}) =>
  readConfig({
    SMTP_URL: smtpUrl,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    RATE_LIMIT_MAX: "1000",
    SITE_URL: ORIGIN,
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    ...extra,
  });

/** The page's text, without its tags. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe.each(backends("referrals"))("on %s", (_name, available, open) => {
  const state = {} as { smtp: TestSmtp; store: Store; config: ServerConfig };
  let opened: OpenedStore | undefined;
  const deps = { store: async () => state.store, config: () => state.config };
  const handlers = {
    signup: createWaitlistHandler(deps),
    links: createLinksHandler(deps),
    status: createStatusHandler(deps, PAGES),
    link: createStatusLinkHandler(deps),
  };
  const pending = new Set<Promise<unknown>>();

  beforeAll(async () => {
    if (!available) return;
    state.smtp = await startSmtp();
    opened = await open();
    state.store = opened.store;
    state.config = configOf(state.smtp.url);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await state.smtp?.close();
  });

  async function call(handler: (r: Request, c: Context) => Promise<Response>, request: Request) {
    const response = await handler(request, createContext(request, "198.51.100.7", pending));
    while (pending.size) await Promise.all(pending);
    return response;
  }
  const json = (body: Record<string, unknown>) =>
    new Request(`${ORIGIN}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ termsAccepted: true, ...body }),
    });
  /** Signs `email` up (by `code`'s share link when given), confirms it by its e-mail, and returns its status link. */
  async function join(email: string, code?: string): Promise<string> {
    expect((await call(handlers.signup, json({ email, ...(code ? { referral: code } : {}) }))).status).toBe(201);
    return confirm(email);
  }
  async function confirm(email: string): Promise<string> {
    const [mail] = await state.smtp.waitFor(email);
    if (!mail) throw new Error("no mail");
    const pressed = await call(
      handlers.links,
      new Request(linkTo(mail, "/waitlist/confirm"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      }),
    );
    expect(pressed.status).toBe(303);
    const location = pressed.headers.get("location") ?? "";
    expect(location).toMatch(/^\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/);
    return `${ORIGIN}${location.replace("&confirmed", "")}`;
  }
  const page = async (link: string) => {
    const response = await call(handlers.status, new Request(link));
    return { response, html: await response.text() };
  };
  const text = async (link: string) => textOf((await page(link)).html);
  /** The status page's "Leave the waitlist" button, pressed. */
  const leave = (link: string) =>
    call(
      handlers.status,
      new Request(link, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body: "action=leave",
      }),
    );
  const codeOf = async (link: string) => /\?via=([0-9a-z]{10})/.exec((await page(link)).html)?.[1] ?? "";
  const reset = async (extra: Record<string, string> = {}) => {
    state.config = configOf(state.smtp.url, extra);
    await state.store.db.query("DELETE FROM waitlist");
    await state.store.db.query("DELETE FROM waitlist_mailbox_day");
    state.smtp.messages.length = 0;
  };

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
      // On the list before migration 0011, which added the column empty.
      await join("old.timer@gmail.com");
      await state.store.db.query("UPDATE waitlist SET mailbox_key = NULL WHERE email = 'old.timer@gmail.com'");
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
      const mailer = (await import("../../../src/server/mail/mailer")).mailerFor(state.config);
      if (!mailer) throw new Error("no mailer");
      const report = await runWave({
        store: state.store,
        next: 1,
        delivery: { kind: "mail", mailer },
        accessUrl: new URL("https://app.noosphere.test/signup"),
        siteUrl: ORIGIN,
        ttlDays: 30,
        referralPlaces: 1000,
      });
      mailer.close();
      expect(report.invited).toBe(1);
      const invitation = state.smtp.messages.slice(before);
      expect(invitation.map((m) => m.to)).toEqual(["ann@example.com"]);
      const statusLink = linkTo(invitation[0] as NonNullable<(typeof invitation)[0]>, "/waitlist/status");
      expect(await text(statusLink)).toContain("You are invited");
      expect(await text(ann)).toContain("You are invited");
      expect(await text(ann)).toContain("1 confirmed referral");
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

  describe.skipIf(!available)("the status page", () => {
    it("sets no cookie, is noindex and no-store, and never names a referred person", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const bea = await join("bea.secret@example.com", await codeOf(ann));
      for (const link of [ann, bea]) {
        const { response, html } = await page(link);
        expect(response.status).toBe(200);
        expect(response.headers.get("set-cookie")).toBeNull();
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("x-robots-tag")).toBe("noindex");
        expect(response.headers.get("referrer-policy")).toBe("no-referrer");
        expect(html).not.toContain("bea.secret");
        expect(html).not.toContain("ann@example.com");
      }
    });

    it("a wrong, unknown or left token gets the same 404: the bare page that says how to get the link again", async () => {
      await reset();
      const gone = await join("gone@example.com");
      expect((await leave(`${gone}&leave`)).status).toBe(303);
      for (const link of [
        `${ORIGIN}/waitlist/status`,
        `${ORIGIN}/waitlist/status?token=short`,
        `${ORIGIN}/waitlist/status?token=${"A".repeat(43)}`,
        `${ORIGIN}/waitlist/status?token=${"A".repeat(42)}%3C`,
        gone,
        `${gone}&leave`,
      ]) {
        const { response, html } = await page(link);
        expect(response.status).toBe(404);
        expect(html).toBe(BARE_STATUS);
      }
    });

    it("Leave asks once: the question deletes nothing, says what goes, and offers Cancel back", async () => {
      await reset({ REFERRAL_PLACES: "3" });
      await join("first@example.com");
      const ann = await join("ann@example.com");
      await join("bea@example.com", await codeOf(ann));
      const status = (await page(ann)).html;
      const self = ann.slice(ORIGIN.length);
      expect(status).toContain(
        `<a href="${self}&amp;leave" class="font-semibold text-ink-950 underline">Leave the waitlist…</a>`,
      );
      // The status page itself has no form that deletes.
      expect(status).not.toContain('name="action" value="leave"');

      const asked = await page(`${ann}&leave`);
      expect(asked.response.status).toBe(200);
      expect(textOf(asked.html)).toContain(
        "Leave the Noosphere waitlist? Leaving deletes, for good: your address and everything you sent us when you signed up your place in line (1st of 3 waiting): signing up again starts at the end your share link, and your referrals (1 confirmed referral) your choice about updates: we will not write to you again It cannot be undone.",
      );
      expect(asked.html).toContain(`<form method="post" action="${self}"`);
      expect(asked.html).toContain(
        `<a href="${self}" class="rounded-full px-6 py-3 font-semibold text-brand-700 ring-1 ring-ink-200 hover:bg-ink-50">Cancel</a>`,
      );
      expect(textOf((await page(ann)).html)).toContain("1st of 3 waiting");

      // Its button is the POST that deletes.
      const left = await leave(`${ann}&leave`);
      expect(left.headers.get("location")).toBe("/waitlist/removed");
      expect((await page(ann)).response.status).toBe(404);
    });

    it("shows the line as a picture with its words, the referrals' next step, and the header's place", async () => {
      await reset({ REFERRAL_PLACES: "3" });
      for (const who of ["a", "b", "c", "d"]) await join(`${who}@example.com`);
      const ann = await join("ann@example.com");
      await join("z@example.com");
      const { html } = await page(ann);
      expect(textOf(html)).toContain("5th of 6 waiting 4 ahead of you You 1 behind you");
      expect(html).toMatch(/<svg viewBox="0 0 300 24"[^>]*aria-hidden="true"/);
      expect(textOf(html)).toContain("0 confirmed referrals");
      expect(textOf(html)).toContain("Your next confirmed referral moves you up to 3 places forward.");
      // The header's "Join the Waitlist" is their place: they are on the list.
      expect(html).toContain('<header><a href="#main" class="rounded-full px-4">5th in line</a></header>');
      expect(html).not.toContain("Join the Waitlist");

      // With REFERRAL_PLACES 0, referrals move nobody: no next step.
      state.config = configOf(state.smtp.url);
      expect(textOf((await page(ann)).html)).not.toContain("Your next confirmed referral");
    });

    it("shares without loading anything: Copy beside the link, a ready e-mail, four networks, a QR code", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const { html } = await page(ann);
      const code = await codeOf(ann);
      const share = `${ORIGIN}/?via=${code}`;
      const q = encodeURIComponent;
      const message = "I joined the waitlist for Noosphere. Join me:";
      expect(html).toContain(`<input id="share-link" type="text" readonly value="${share}"`);
      expect(html).toMatch(/<button type="button" data-copy="share-link" hidden [^>]*>Copy<\/button>/);
      const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
      expect(hrefs).toEqual(
        expect.arrayContaining([
          `mailto:?subject=${q("Join me on the Noosphere waitlist")}&body=${q(`${message} ${share}`)}`,
          `https://x.com/intent/post?text=${q(message)}&url=${q(share)}`,
          `https://www.linkedin.com/sharing/share-offsite/?url=${q(share)}`,
          `https://wa.me/?text=${q(`${message} ${share}`)}`,
          `https://bsky.app/intent/compose?text=${q(`${message} ${share}`)}`,
        ]),
      );
      // Nothing on the page is fetched from another site: no src, no srcset, no stylesheet link.
      expect(html).not.toMatch(/\ssrc(set)?=/);
      expect(html).toMatch(/<svg role="img" aria-label="QR code of your share link"[^>]*viewBox="0 0 (\d+) \1"/);
    });

    it("an invited person gets Create my account, to EARLY_ACCESS_URL with a code that redeems once; without it, no button", async () => {
      await reset();
      const ann = await join("ann@example.com");
      const mailer = (await import("../../../src/server/mail/mailer")).mailerFor(state.config);
      if (!mailer) throw new Error("no mailer");
      await runWave({
        store: state.store,
        next: 1,
        delivery: { kind: "mail", mailer },
        accessUrl: new URL("https://app.noosphere.test/signup"),
        siteUrl: ORIGIN,
        ttlDays: 30,
      });
      mailer.close();
      const { html } = await page(ann);
      const href = /<a id="create-account" href="([^"]*)"/.exec(html)?.[1] ?? "";
      expect(href).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?invite=[A-Za-z0-9_-]{27}$/);
      expect(textOf(html)).toContain("Create my account");
      expect(textOf(html)).toContain("It carries your invitation’s code, which works once, until");
      // The page's code is derived (its MAC under the database's secret), never stored: the product redeems it once,
      // and one character changed is an unknown code.
      const code = new URL(href).searchParams.get("invite") ?? "";
      const redeemer = createRedeemHandler({
        store: async () => state.store,
        config: () => configOf(state.smtp.url, { INVITE_REDEEM_TOKEN: REDEEM_TOKEN }),
      });
      const redeem = (given: string) =>
        redeemer(
          new Request(`${ORIGIN}/api/invites/redeem`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${REDEEM_TOKEN}` },
            body: JSON.stringify({ code: given }),
          }),
          createContext(new Request(`${ORIGIN}/api/invites/redeem`), "198.51.100.9", new Set()) as unknown as Context,
        );
      const altered = `${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`;
      expect((await redeem(altered)).status).toBe(404);
      const joined = await redeem(code);
      expect(joined.status).toBe(200);
      expect(await joined.json()).toEqual({ email: "ann@example.com", name: null });
      expect((await redeem(code)).status).toBe(409);
      expect((await page(ann)).html).toContain('<a href="#main" class="rounded-full px-4">You have joined</a>');
      await state.store.db.query("UPDATE waitlist SET status = 'invited' WHERE email = 'ann@example.com'");
      expect(html).toContain('<a href="#main" class="rounded-full px-4">You are invited</a>');
      state.config = configOf(state.smtp.url, { EARLY_ACCESS_URL: "" });
      expect((await page(ann)).html).not.toContain("create-account");
    });

    it("the confirmation's e-mail carries the link; asking again mails a new one, the same answer for anyone", async () => {
      await reset();
      const link = await join("ann@example.com");
      const [mail] = (await state.smtp.waitFor("ann@example.com", 2)).slice(1);
      expect(mail?.subject).toBe("Your place on the Noosphere waitlist");
      expect(mail && linkTo(mail, "/waitlist/status")).toBe(link);
      const ask = (email: string) =>
        call(
          handlers.link,
          new Request(`${ORIGIN}/waitlist/link`, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
            body: new URLSearchParams({ email }).toString(),
          }),
        );
      const [listed, unlisted] = [await ask("ANN@example.com"), await ask("nobody@example.com")];
      for (const answer of [listed, unlisted]) {
        expect(answer.status).toBe(303);
        expect(answer.headers.get("location")).toBe("/waitlist/link/sent");
      }
      const [again] = (await state.smtp.waitFor("ann@example.com", 3)).slice(2);
      const second = again ? linkTo(again, "/waitlist/status") : "";
      expect(second).not.toBe(link);
      expect(await text(second)).toContain("1st of 1 waiting");
      expect(await text(link)).toContain("1st of 1 waiting");
      expect(state.smtp.messages.some((m) => m.to === "nobody@example.com")).toBe(false);
      // A second ask within 10 minutes sends nothing more.
      await ask("ann@example.com");
      expect(state.smtp.messages.filter((m) => m.to.toLowerCase() === "ann@example.com")).toHaveLength(3);
    });
  });
});
