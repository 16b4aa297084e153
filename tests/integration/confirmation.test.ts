/**
 * Double opt-in and removal, end to end below the browser: the sign-up and link handlers on an embedded
 * Postgres (and PostgreSQL, directly and through Neon's HTTP protocol, when 127.0.0.1:5432 answers), sending
 * through nodemailer to a real SMTP server on 127.0.0.1 that keeps what it receives.
 * Longer than 150 lines: one story (sign up, confirm, repeat, remove, outage, purge) told once per backend.
 */

import type { Context } from "@netlify/functions";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createContext } from "../../src/local-netlify/netlify-context";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createLinksHandler } from "../../src/server/links-handler";
import type { Store } from "../../src/server/store";
import { createWaitlistHandler } from "../../src/server/waitlist-handler";
import { SITE } from "../../src/site";
import { backends, type OpenedStore } from "./backends";
import { findEntry } from "./find-entry";
import { type CapturedMail, startSmtp, type TestSmtp } from "./smtp";

const ORIGIN = "http://localhost:4321";

describe.each(backends("confirm"))("on %s", (_name, available, open) => {
  let smtp: TestSmtp;
  let store: Store;
  let opened: OpenedStore;
  let config: ServerConfig;
  const deps = { store: async () => store, config: () => config };
  const signupHandler = createWaitlistHandler(deps);
  const linksHandler = createLinksHandler(deps);
  const pending = new Set<Promise<unknown>>();

  const mailConfig = (smtpUrl: string, extra: Record<string, string> = {}) =>
    readConfig({ SMTP_URL: smtpUrl, MAIL_FROM: "Noosphere <hello@noosphere.test>", RATE_LIMIT_MAX: "1000", ...extra });

  /** Calls a handler as the platform does, then waits for its after-the-answer work (the e-mail). */
  async function call(handler: typeof signupHandler, request: Request, ip = "198.51.100.1"): Promise<Response> {
    const context: Context = createContext(request, ip, pending);
    const response = await handler(request, context);
    while (pending.size) await Promise.all(pending);
    return response;
  }

  const signUp = (email: string, form = false) =>
    call(
      signupHandler,
      new Request(`${ORIGIN}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
        body: form
          ? new URLSearchParams({ email, termsAccepted: "on" }).toString()
          : JSON.stringify({ email, termsAccepted: true }),
      }),
    );

  /** The page's form posts back to the link's own address (token in the query), as a browser does. */
  const pressButton = (link: string) =>
    call(
      linksHandler,
      new Request(link, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      }),
    );

  const requestRemoval = (email: string, ip?: string) =>
    call(
      linksHandler,
      new Request(`${ORIGIN}/waitlist/remove`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email }).toString(),
      }),
      ip,
    );

  const linkTo = (mail: CapturedMail, path: string) => {
    const link = mail.links.find((href) => new URL(href).pathname === path);
    if (!link) throw new Error(`no ${path} link in:\n${mail.text}`);
    return link;
  };
  const statusOf = async (email: string) =>
    (await store.db.query<{ status: string }>("SELECT status FROM waitlist WHERE lower(email) = lower($1)", [email]))[0]
      ?.status ?? null;

  beforeAll(async () => {
    if (!available) return;
    smtp = await startSmtp();
    opened = await open();
    store = opened.store;
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await smtp?.close();
  });
  afterEach(() => {
    config = mailConfig(smtp.url);
    vi.restoreAllMocks();
  });

  describe.skipIf(!available)("with SMTP_URL and MAIL_FROM set", () => {
    it("a sign-up is stored pending, answered at once, and mailed a confirm and a remove link", async () => {
      config = mailConfig(smtp.url);
      const res = await signUp("ada@example.com");
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
      expect(await statusOf("ada@example.com")).toBe("pending");

      const [mail] = await smtp.waitFor("ada@example.com");
      expect(mail?.from).toBe("hello@noosphere.test");
      expect(mail?.subject).toContain(SITE.name);
      expect(mail?.text).toContain(SITE.name);
      if (!mail) return;
      const confirm = linkTo(mail, "/waitlist/confirm");
      const remove = linkTo(mail, "/waitlist/leave");
      expect(new URL(confirm).origin).toBe(ORIGIN);
      // The HTML part carries the same links, and nothing that phones home: no image, no redirector.
      expect(mail.html).toContain(confirm.replaceAll("&", "&amp;"));
      expect(mail.html).toContain(remove);
      expect(mail.html).not.toMatch(/<img|<script|url\(/i);
      expect(mail.links.every((href) => new URL(href).origin === ORIGIN)).toBe(true);
      // Only a hash of a token is kept.
      const tokens = await store.db.query<{ token_hash: string }>("SELECT token_hash FROM waitlist_token");
      const token = new URL(confirm).searchParams.get("token") ?? "";
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokens.some((row) => row.token_hash.includes(token))).toBe(false);
    });

    it("the confirm link's POST confirms; the export says so; a second POST gets 'already confirmed'", async () => {
      const [mail] = await smtp.waitFor("ada@example.com");
      if (!mail) throw new Error("no mail");
      const confirm = linkTo(mail, "/waitlist/confirm");
      const first = await pressButton(confirm);
      expect(first.status).toBe(303);
      expect(first.headers.get("location")).toBe("/waitlist/confirmed");
      expect((await store.list()).find((e) => e.email === "ada@example.com")?.status).toBe("confirmed");
      const again = await pressButton(confirm);
      expect(again.headers.get("location")).toBe("/waitlist/already-confirmed");
    });

    it("a confirmed address signing up again gets the same answer and no e-mail", async () => {
      const before = smtp.messages.length;
      const res = await signUp("ADA@example.com");
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
      expect(smtp.messages.length).toBe(before);
    });

    it("a pending address signing up again, in any case, is re-sent the confirmation at most once per 10 minutes", async () => {
      // Stored as first typed (mixed case); every repeat below is the same person, whatever its case.
      await signUp("Grace@Example.com");
      await smtp.waitFor("grace@example.com", 1);
      await signUp("grace@example.com");
      await signUp("GRACE@example.com");
      expect(smtp.messages.filter((m) => m.to.toLowerCase() === "grace@example.com")).toHaveLength(1);
      // Ten minutes later (the database's clock decides: move the last sending back), a repeat sends again.
      await store.db.query(
        "UPDATE waitlist SET confirmation_sent_at = now() - interval '10 minutes 1 second' WHERE lower(email) = $1",
        ["grace@example.com"],
      );
      await signUp("grace@example.com");
      const [first, again] = await smtp.waitFor("grace@example.com", 2);
      expect(linkTo(again as CapturedMail, "/waitlist/confirm")).not.toBe(
        linkTo(first as CapturedMail, "/waitlist/confirm"),
      );
    });

    it("the form post (no JavaScript) goes to /join/thanks with the confirmation line shown", async () => {
      const res = await signUp("form@example.com", true);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/join/thanks#confirmation-sent");
      await smtp.waitFor("form@example.com");
    });

    it("the remove link's POST deletes the row, tokens and all; the link then no longer works", async () => {
      await signUp("leave@example.com");
      const [mail] = await smtp.waitFor("leave@example.com");
      const remove = linkTo(mail as CapturedMail, "/waitlist/leave");
      const res = await pressButton(remove);
      expect(res.headers.get("location")).toBe("/waitlist/removed");
      expect(await findEntry(store, "leave@example.com")).toBeNull();
      const rows = await store.db.query(
        "SELECT 1 FROM waitlist_token t LEFT JOIN waitlist w ON w.id = t.waitlist_id WHERE w.id IS NULL",
      );
      expect(rows).toEqual([]);
      expect((await pressButton(remove)).headers.get("location")).toBe("/waitlist/link-invalid");
    });

    it("an expired confirm link gets 'expired' and confirms nothing; each token works only for its purpose", async () => {
      await signUp("late@example.com");
      const [mail] = await smtp.waitFor("late@example.com");
      const confirm = linkTo(mail as CapturedMail, "/waitlist/confirm");
      const remove = linkTo(mail as CapturedMail, "/waitlist/leave");
      // A remove token on the confirm page, and the reverse: neither is accepted.
      const swapped = (from: string, to: string) => `${ORIGIN}${to}${new URL(from).search}`;
      expect((await pressButton(swapped(remove, "/waitlist/confirm"))).headers.get("location")).toBe(
        "/waitlist/link-invalid",
      );
      expect((await pressButton(swapped(confirm, "/waitlist/leave"))).headers.get("location")).toBe(
        "/waitlist/link-invalid",
      );
      expect(await statusOf("late@example.com")).toBe("pending");
      await store.db.query("UPDATE waitlist_token SET expires_at = now() - interval '1 second'");
      expect((await pressButton(confirm)).headers.get("location")).toBe("/waitlist/link-expired");
      expect(await statusOf("late@example.com")).toBe("pending");
    });

    it.each([
      ["no token", `${ORIGIN}/waitlist/confirm`],
      ["a malformed token", `${ORIGIN}/waitlist/confirm?token=abc`],
      ["an unknown token", `${ORIGIN}/waitlist/leave?token=${"A".repeat(43)}`],
    ])("%s: 'this link doesn't work', and nothing changes", async (_, link) => {
      const before = await store.count();
      expect((await pressButton(link)).headers.get("location")).toBe("/waitlist/link-invalid");
      expect(await store.count()).toBe(before);
    });

    it("a link's POST from another site is refused", async () => {
      const res = await linksHandler(
        new Request(`${ORIGIN}/waitlist/confirm?token=${"A".repeat(43)}`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
        }),
        createContext(new Request(ORIGIN), "198.51.100.1", pending),
      );
      expect(res.status).toBe(403);
    });
  });

  describe.skipIf(!available)("a removal link asked for by address (/waitlist/remove)", () => {
    it("answers the same whether or not the address is listed, and mails only a listed one", async () => {
      await signUp("listed@example.com");
      await smtp.waitFor("listed@example.com", 1);
      const listed = await requestRemoval("listed@example.com", "198.51.100.20");
      const unlisted = await requestRemoval("nobody@example.com", "198.51.100.20");
      expect([listed.status, unlisted.status]).toEqual([303, 303]);
      expect(listed.headers.get("location")).toBe("/waitlist/remove/sent");
      expect(unlisted.headers.get("location")).toBe(listed.headers.get("location"));
      const mails = await smtp.waitFor("listed@example.com", 2);
      const removal = mails[1] as CapturedMail;
      expect(removal.subject).toMatch(/leave/i);
      expect(smtp.messages.some((m) => m.to === "nobody@example.com")).toBe(false);
      expect((await pressButton(linkTo(removal, "/waitlist/leave"))).headers.get("location")).toBe("/waitlist/removed");
      expect(await findEntry(store, "listed@example.com")).toBeNull();
    });

    it("is rate limited per network like sign-ups; a mistyped address counts nothing", async () => {
      config = mailConfig(smtp.url, { RATE_LIMIT_MAX: "2" });
      const ip = "198.51.100.30";
      expect((await requestRemoval("not an address", ip)).status).toBe(400);
      expect((await requestRemoval("a@example.com", ip)).status).toBe(303);
      expect((await requestRemoval("b@example.com", ip)).status).toBe(303);
      const limited = await requestRemoval("c@example.com", ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      const page = await limited.text();
      expect(page).toContain("Please come back in");
      expect(page).toContain('<a href="/waitlist/remove">Back to the form</a>'); // the removal form, not /join
      // Another network is not affected.
      expect((await requestRemoval("c@example.com", "198.51.100.31")).status).toBe(303);
    });
  });

  describe.skipIf(!available)("when the SMTP server is down", () => {
    it("the sign-up is still 201 and stored pending; the failure is logged without the address; a repeat re-sends", async () => {
      const down = await startSmtp();
      await down.close(); // a port where nothing listens now
      config = mailConfig(down.url);
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await signUp("outage@example.com");
      expect(res.status).toBe(201);
      expect(await statusOf("outage@example.com")).toBe("pending");
      const lines = logged.mock.calls.map((args) => String(args[0]));
      expect(lines.some((line) => line.includes("mail.confirmation_failed"))).toBe(true);
      expect(lines.join("\n")).not.toContain("outage@example.com");
      // The server is back: the next repeat (no 10-minute wait, as nothing was sent) brings the e-mail.
      config = mailConfig(smtp.url);
      await signUp("outage@example.com");
      const [mail] = await smtp.waitFor("outage@example.com");
      expect((await pressButton(linkTo(mail as CapturedMail, "/waitlist/confirm"))).headers.get("location")).toBe(
        "/waitlist/confirmed",
      );
    });
  });

  describe.skipIf(!available)("with mail off (no SMTP_URL)", () => {
    it("sign-ups are stored confirmed, with today's answer, and removal by address explains itself", async () => {
      config = readConfig({ RATE_LIMIT_MAX: "1000" });
      const before = smtp.messages.length;
      const res = await signUp("nomail@example.com");
      expect(await res.json()).toEqual({ ok: true });
      expect(await statusOf("nomail@example.com")).toBe("confirmed");
      const removal = await requestRemoval("nomail@example.com");
      expect(removal.status).toBe(503);
      expect(await removal.text()).toContain(SITE.contactEmail);
      expect(smtp.messages.length).toBe(before);
    });

    it.each([
      ["https://noosphere.app/", "https://noosphere.app"],
      ["https://noosphere.app/some/path", "https://noosphere.app"],
      ["noosphere.app", null],
      ["javascript:alert(1)", null],
      ["", null],
    ])("SITE_URL %j gives links the origin %j (else the request's)", (value, origin) => {
      expect(readConfig({ SITE_URL: value }).siteUrl).toBe(origin);
    });

    it("only one of the two set: mail stays off and the configuration says why", () => {
      expect(readConfig({ SMTP_URL: smtp.url }).mail).toBeNull();
      expect(readConfig({ SMTP_URL: smtp.url }).mailConfigProblem).toContain("MAIL_FROM");
      expect(readConfig({ MAIL_FROM: "a@b.test" }).mailConfigProblem).toContain("SMTP_URL");
      // A sender with a line break is refused, not sent with an empty envelope sender.
      const broken = readConfig({ SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <a@b.test>\nBcc: x@evil.test" });
      expect(broken.mail).toBeNull();
      expect(broken.mailConfigProblem).toBe("MAIL_FROM must be one line: confirmation e-mails are off until it is.");
    });
  });

  describe.skipIf(!available)("purging pending sign-ups", () => {
    it("counts without deleting on a dry run, deletes only old pending rows with apply", async () => {
      config = mailConfig(smtp.url);
      await signUp("stale@example.com");
      await smtp.waitFor("stale@example.com");
      await store.db.query(
        "UPDATE waitlist SET created_at = now() - interval '15 days', confirmation_sent_at = now() - interval '15 days' WHERE email = 'stale@example.com'",
      );
      // Its link was sent with the e-mail, 15 days ago: it expired after 7.
      await store.db.query(
        "UPDATE waitlist_token SET expires_at = now() - interval '8 days' WHERE waitlist_id = (SELECT id FROM waitlist WHERE email = 'stale@example.com')",
      );
      // A confirmed row just as old stays.
      await store.db.query(
        "UPDATE waitlist SET created_at = now() - interval '30 days' WHERE email = 'ada@example.com'",
      );
      const dry = await store.purgePending(14 * 24, false);
      expect(dry).toEqual({ matched: 1, purged: 0 });
      expect(await statusOf("stale@example.com")).toBe("pending");
      expect(await store.purgePending(14 * 24, true)).toEqual({ matched: 1, purged: 1 });
      expect(await statusOf("stale@example.com")).toBeNull();
      expect(await statusOf("ada@example.com")).toBe("confirmed");
    });

    it("never deletes a pending sign-up whose confirmation link still works, whatever the age asked for", async () => {
      config = mailConfig(smtp.url);
      await signUp("waiting@example.com");
      await smtp.waitFor("waiting@example.com");
      await store.db.query(
        "UPDATE waitlist SET created_at = now() - interval '3 days', confirmation_sent_at = now() - interval '3 days' WHERE email = 'waiting@example.com'",
      );
      expect(await store.purgePending(24, true)).toEqual({ matched: 0, purged: 0 });
      expect(await statusOf("waiting@example.com")).toBe("pending");
    });
  });
});
