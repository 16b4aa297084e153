/**
 * Double opt-in below the browser: a sign-up is stored pending and mailed, its link's button confirms it, a repeat
 * is answered the same, links that are expired, swapped, malformed or posted from elsewhere change nothing. On an
 * embedded Postgres and, when 127.0.0.1:5432 answers, PostgreSQL directly and through Neon's HTTP protocol, sending
 * through nodemailer to a real SMTP server on 127.0.0.1. Removal: removal.test.ts; outages and settings:
 * mail-settings.test.ts; the purge: purge-pending.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { SITE } from "../../../src/site";
import { backends } from "../../support/backends";
import { consentHarness, linkTo, mailConfig, ORIGIN } from "../../support/consent-harness";
import type { CapturedMail } from "../../support/smtp";

describe.each(backends("confirm"))("on %s", (_name, available, open) => {
  const { state, signUp, pressButton, statusOf, linksHandler, pending } = consentHarness(available, open);

  describe.skipIf(!available)("with SMTP_URL and MAIL_FROM set", () => {
    it("a sign-up is stored pending, answered at once, and mailed a confirm and a remove link", async () => {
      state.config = mailConfig(state.smtp.url);
      const res = await signUp("ada@example.com");
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
      expect(await statusOf("ada@example.com")).toBe("pending");

      const [mail] = await state.smtp.waitFor("ada@example.com");
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
      const tokens = await state.store.db.query<{ token_hash: string }>("SELECT token_hash FROM waitlist_token");
      const token = new URL(confirm).searchParams.get("token") ?? "";
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokens.some((row) => row.token_hash.includes(token))).toBe(false);
    });

    it("the confirm link's POST confirms; the export says so; a second POST gets 'already confirmed'", async () => {
      const [mail] = await state.smtp.waitFor("ada@example.com");
      if (!mail) throw new Error("no mail");
      const confirm = linkTo(mail, "/waitlist/confirm");
      const first = await pressButton(confirm);
      expect(first.status).toBe(303);
      // To the person's status page, by a new private link (src/server/referrals/status-handler.ts).
      expect(first.headers.get("location")).toEqual(
        expect.stringMatching(/^\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/),
      );
      expect((await state.store.list()).find((e) => e.email === "ada@example.com")?.status).toBe("confirmed");
      const again = await pressButton(confirm);
      expect(again.headers.get("location")).toBe("/waitlist/already-confirmed");
    });

    it("the confirm link kept and opened again once invited, then joined, says so, even after it expired", async () => {
      const [mail] = await state.smtp.waitFor("ada@example.com");
      if (!mail) throw new Error("no mail");
      const confirm = linkTo(mail, "/waitlist/confirm");
      const outcomes: Array<string | null> = [];
      for (const status of ["invited", "joined"]) {
        await state.store.db.query("UPDATE waitlist SET status = $1 WHERE email = 'ada@example.com'", [status]);
        outcomes.push((await pressButton(confirm)).headers.get("location"));
      }
      await state.store.db.query(
        "UPDATE waitlist_token SET expires_at = now() - interval '1 second' WHERE purpose = 'confirm' AND waitlist_id = (SELECT id FROM waitlist WHERE email = 'ada@example.com')",
      );
      outcomes.push((await pressButton(confirm)).headers.get("location"));
      await state.store.db.query("UPDATE waitlist SET status = 'confirmed' WHERE email = 'ada@example.com'");
      expect(outcomes).toEqual(["/waitlist/already-invited", "/waitlist/already-joined", "/waitlist/already-joined"]);
      // Nothing changed on the way: still one status link, the address unchanged.
      const tokens = await state.store.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM waitlist_token WHERE purpose = 'status'",
      );
      expect(tokens[0]?.n).toBe(1);
    });

    it("a confirmed address signing up again gets the same answer and no e-mail", async () => {
      const before = state.smtp.messages.length;
      const res = await signUp("ADA@example.com");
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
      expect(state.smtp.messages.length).toBe(before);
    });

    it("a pending address signing up again, in any case, is re-sent the confirmation at most once per 10 minutes", async () => {
      // Stored as first typed (mixed case); every repeat below is the same person, whatever its case.
      await signUp("Grace@Example.com");
      await state.smtp.waitFor("grace@example.com", 1);
      await signUp("grace@example.com");
      await signUp("GRACE@example.com");
      expect(state.smtp.messages.filter((m) => m.to.toLowerCase() === "grace@example.com")).toHaveLength(1);
      // Ten minutes later (the database's clock decides: move the last sending back), a repeat sends again.
      await state.store.db.query(
        "UPDATE waitlist SET confirmation_sent_at = now() - interval '10 minutes 1 second' WHERE lower(email) = $1",
        ["grace@example.com"],
      );
      await signUp("grace@example.com");
      const [first, again] = await state.smtp.waitFor("grace@example.com", 2);
      expect(linkTo(again as CapturedMail, "/waitlist/confirm")).not.toBe(
        linkTo(first as CapturedMail, "/waitlist/confirm"),
      );
    });

    it("the form post (no JavaScript) goes to /join/thanks with the confirmation line shown", async () => {
      const res = await signUp("form@example.com", true);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/join/thanks#confirmation-sent");
      await state.smtp.waitFor("form@example.com");
    });

    it("an expired confirm link gets 'expired' and confirms nothing; each token works only for its purpose", async () => {
      await signUp("late@example.com");
      const [mail] = await state.smtp.waitFor("late@example.com");
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
      await state.store.db.query("UPDATE waitlist_token SET expires_at = now() - interval '1 second'");
      expect((await pressButton(confirm)).headers.get("location")).toBe("/waitlist/link-expired");
      expect(await statusOf("late@example.com")).toBe("pending");
    });

    it.each([
      ["no token", `${ORIGIN}/waitlist/confirm`],
      ["a malformed token", `${ORIGIN}/waitlist/confirm?token=abc`],
      ["an unknown token", `${ORIGIN}/waitlist/leave?token=${"A".repeat(43)}`],
    ])("%s: 'this link doesn't work', and nothing changes", async (_, link) => {
      const before = await state.store.count();
      expect((await pressButton(link)).headers.get("location")).toBe("/waitlist/link-invalid");
      expect(await state.store.count()).toBe(before);
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
});
