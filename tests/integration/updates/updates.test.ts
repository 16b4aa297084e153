/**
 * Updates to the list below the browser: who receives an update (exactly the consenting confirmed people, once
 * each), its headers as RFC 8058 asks, the status link it carries, the provider's one-click POST and a forged token,
 * the page a link opens. On PGlite, PostgreSQL and Neon's HTTP protocol, with a real SMTP server. When sending goes
 * wrong: updates-delivery.test.ts; in the browser: tests/e2e/updates-console.spec.ts (the team's flow) and
 * updates-choice.spec.ts (a person's).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DatabaseKey } from "../../../src/server/crypto/keys";
import { newToken } from "../../../src/server/crypto/tokens";
import { updatesKey } from "../../../src/server/updates";
import { UPDATES_WORDS_VERSION } from "../../../src/server/updates/consent";
import { UNSUBSCRIBE_PAGE_WORDS } from "../../../src/server/updates/handler";
import { statusToken } from "../../../src/server/updates/status-token";
import { backends } from "../../support/backends";
import { BARE_STATUS, ORIGIN, textOf, updatesGround } from "../../support/updates-harness";

describe.each(backends("updates"))("on %s", (_name, available, open) => {
  const { state, call, status, unsubscribe, seed, seedSaidYes, updates, newDraft, send, received, linkIn, DRAFT } =
    updatesGround(available, open);

  describe.skipIf(!available)("who gets an update", () => {
    it("exactly the confirmed people who said yes, once each", async () => {
      await seed([
        ["yes-1@example.com", "confirmed", true],
        ["yes-2@example.com", "confirmed", true],
        ["never-asked@example.com", "confirmed", null],
        ["said-no@example.com", "confirmed", false],
        ["pending-yes@example.com", "pending", true],
        ["invited-yes@example.com", "invited", true],
      ]);
      expect(await updates().audience()).toBe(2);
      const { id, recipients } = await updates().create(DRAFT.subject, DRAFT.body, "CLI", null);
      expect(recipients).toBe(2);
      // One leaves after the update was recorded, before their turn: not mailed.
      await state.store.db.query(
        "INSERT INTO waitlist (email, status, updates_consent) VALUES ('late@example.com', 'confirmed', true)",
      );
      await state.store.db.query("DELETE FROM waitlist WHERE email = 'yes-2@example.com'");
      expect(await send(id)).toEqual({ sent: 1, failed: 0, skipped: 0, deferred: 0, stopped: null, remaining: 0 });
      expect(received()).toEqual(["yes-1@example.com"]);
      // Sending it again sends nothing.
      expect(await send(id)).toEqual({ sent: 0, failed: 0, skipped: 0, deferred: 0, stopped: null, remaining: 0 });
      expect(received()).toEqual(["yes-1@example.com"]);
    });

    it("carries RFC 8058's headers, a visible link to stop, a Message-ID on the site's domain, and no tracking", async () => {
      await seed([["ada@example.com", "confirmed", true]]);
      await send(await newDraft());
      const [mail] = state.smtp.messages;
      if (!mail) throw new Error("no mail");
      const unsubscribe = mail.links.find((l) => l.startsWith(`${ORIGIN}/waitlist/unsubscribe?token=`)) ?? "";
      expect(unsubscribe).toMatch(/^http:\/\/localhost:4321\/waitlist\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
      expect(mail.rawHeaders.get("list-unsubscribe")).toBe(`List-Unsubscribe: <${unsubscribe}>`);
      expect(mail.rawHeaders.get("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(mail.rawHeaders.get("message-id")).toMatch(/^Message-ID: <[A-Za-z0-9_-]{24}@localhost>$/);
      expect(mail.subject).toBe("What we built in March");
      // And a link to the reader's own status page (updates/status-token.ts: derived, never stored).
      const status = mail.links.find((l) => l.startsWith(`${ORIGIN}/waitlist/status?token=`)) ?? "";
      expect(status).toMatch(/^http:\/\/localhost:4321\/waitlist\/status\?token=[A-Za-z0-9_-]{43}$/);
      expect(mail.text).toBe(
        `Hello!\n\nThe graph view is in: https://noosphere.test/graph.\nMore soon.\n\n--\nYou are receiving this because you asked for updates when you joined the Noosphere waitlist.\nYour place in line: ${status}\nStop these updates: ${unsubscribe}\n\n— Noosphere\nhttp://localhost:4321\n`,
      );
      // The HTML (the site's templates, src/server/mail/layout.ts) with the same links, each in its own <a>.
      const anchor = (href: string, label: string) =>
        new RegExp(`<a class="nx-[a-z]+" href="${href.replace(/[.?]/g, "\\$&")}" style="[^"]*"[^>]*>${label}</a>`);
      expect(mail.html).toMatch(anchor("https://noosphere.test/graph", "https://noosphere.test/graph"));
      expect(mail.html).toContain("https://noosphere.test/graph</a>.<br>More soon.");
      expect(mail.html).toMatch(anchor(unsubscribe, "Stop these updates"));
      expect(mail.html).toMatch(anchor(status, "Your place in line"));
      expect(mail.html).not.toMatch(/<img|<script|url\(/i);
    });
  });

  describe.skipIf(!available)("the status link an update carries", () => {
    it("opens its reader's own page, whose choice and leave work; altered, forged or another's, it is the 404", async () => {
      await seed([
        ["ada@example.com", "confirmed", true],
        ["bob@example.com", "confirmed", true],
        ["pending@example.com", "pending", null],
      ]);
      await send(await newDraft());
      const [ada, bob] = [
        linkIn("ada@example.com", "/waitlist/status?"),
        linkIn("bob@example.com", "/waitlist/status?"),
      ];
      const people = await state.store.db.query<{ id: number; email: string; referral_code: string }>(
        "SELECT id, email, referral_code FROM waitlist ORDER BY email",
      );
      const [adaRow, bobRow, pendingRow] = people;
      if (!adaRow || !bobRow || !pendingRow) throw new Error("not seeded");
      // Never stored: an update adds no token row.
      expect(await state.store.db.query("SELECT 1 FROM waitlist_token")).toEqual([]);

      // Each opens its own person's page (their share code on it), the same link in every update.
      const opened = await status(new Request(ada));
      expect(opened.status).toBe(200);
      const html = await opened.text();
      expect(html).toContain(`?via=${adaRow.referral_code}`);
      expect(textOf(html)).toContain("You are 1st in line among the 2 confirmed people waiting");
      expect(await (await status(new Request(bob))).text()).toContain(`?via=${bobRow.referral_code}`);
      expect(await (await status(new Request(bob))).text()).not.toContain(`?via=${adaRow.referral_code}`);
      const key = await updatesKey(state.store);
      expect(ada).toBe(`${ORIGIN}/waitlist/status?token=${statusToken(key, Number(adaRow.id))}`);

      // Anything else is the built page with a 404, naming nobody.
      const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";
      const swap = (token: string, at: number) =>
        `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
      const adaToken = tokenOf(ada);
      const wrong = [
        // One character of the MAC changed; one of the id (another person's id, her MAC).
        swap(adaToken, 30),
        swap(adaToken, 10),
        // Her id with Bob's MAC.
        `${adaToken.slice(0, 11)}${tokenOf(bob).slice(11)}`,
        // Made under another key (a forger's, or another site's).
        statusToken(randomBytes(32) as unknown as DatabaseKey, Number(adaRow.id)),
        // A pending address has no status page, even by a real MAC.
        statusToken(key, Number(pendingRow.id)),
      ];
      for (const token of wrong) {
        const answer = await status(new Request(`${ORIGIN}/waitlist/status?token=${token}`));
        expect(answer.status, token).toBe(404);
        expect(await answer.text()).toBe(BARE_STATUS);
      }

      // The page's updates choice, by this link.
      const form = (handler: typeof status, href: string, body: string) =>
        handler(
          new Request(href, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
            body,
          }),
        );
      const choice = await form(call, `${ORIGIN}/waitlist/updates?token=${adaToken}`, "updates=no");
      expect(choice.headers.get("location")).toBe(`/waitlist/status?token=${adaToken}#updates`);
      const forgedChoice = await form(call, `${ORIGIN}/waitlist/updates?token=${wrong[3]}`, "updates=no");
      expect(forgedChoice.headers.get("location")).toBe("/waitlist/link-invalid");
      const consent = await state.store.db.query<{ email: string; updates_consent: boolean }>(
        "SELECT email, updates_consent FROM waitlist WHERE status = 'confirmed' ORDER BY email",
      );
      expect(consent).toEqual([
        { email: "ada@example.com", updates_consent: false },
        { email: "bob@example.com", updates_consent: true },
      ]);

      // Leaving by it: a forged one leaves nobody; hers, only her. Then her link is the 404.
      expect((await form(status, `${ORIGIN}/waitlist/status?token=${wrong[3]}`, "action=leave")).status).toBe(404);
      const left = await form(status, ada, "action=leave");
      expect(left.headers.get("location")).toBe("/waitlist/removed");
      const emails = await state.store.db.query<{ email: string }>("SELECT email FROM waitlist ORDER BY email");
      expect(emails.map((r) => r.email)).toEqual(["bob@example.com", "pending@example.com"]);
      expect((await status(new Request(ada))).status).toBe(404);
    });
  });

  describe.skipIf(!available)("stopping them", () => {
    it("the provider's one-click POST stops exactly that person; a forged token answers the same and stops nobody", async () => {
      await seedSaidYes(["ada", "bob"]);
      await send(await newDraft());
      const mail = state.smtp.messages.find((m) => m.to === "ada@example.com");
      const link = /<(.+)>/.exec(mail?.rawHeaders.get("list-unsubscribe") ?? "")?.[1] ?? "";
      const post = (href: string) =>
        call(
          new Request(href, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: "List-Unsubscribe=One-Click",
          }),
        );
      const forged = await post(`${ORIGIN}/waitlist/unsubscribe?token=${newToken().token}`);
      const real = await post(link);
      for (const answer of [forged, real]) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("set-cookie")).toBeNull();
      }
      expect(await forged.text()).toBe(await (await post(link)).text());
      const rows = await state.store.db.query<{
        email: string;
        updates_consent: boolean;
        updates_consent_words: string;
      }>("SELECT email, updates_consent, updates_consent_words FROM waitlist ORDER BY email");
      expect(rows).toEqual([
        { email: "ada@example.com", updates_consent: false, updates_consent_words: "one-click" },
        { email: "bob@example.com", updates_consent: true, updates_consent_words: null },
      ]);
      expect((await updates().list(1))[0]).toMatchObject({ sent: 2, unsubscribed: 1 });
      // A GET (a link scanner) changes nothing: it is the page, which now says she has stopped.
      const shown = await call(new Request(link));
      expect(shown.status).toBe(200);
      expect(textOf(await shown.text())).toContain("You have stopped these updates");
      expect((await updates().list(1))[0]).toMatchObject({ sent: 2, unsubscribed: 1 });
    });

    it("the page a real link opens knows where its person stands; again is recorded as consent; leaving asks once", async () => {
      await seedSaidYes(["ada", "bob"]);
      await send(await newDraft());
      const [ada, bob] = [
        linkIn("ada@example.com", "/waitlist/unsubscribe?"),
        linkIn("bob@example.com", "/waitlist/unsubscribe?"),
      ];
      const self = ada.slice(ORIGIN.length).replaceAll("&", "&amp;");
      const page = async (href: string) => textOf(await (await call(new Request(href))).text());
      const form = (href: string, body: string, origin = ORIGIN) =>
        call(
          new Request(href, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
            body,
          }),
        );
      const consent = async () =>
        state.store.db.query<{ email: string; updates_consent: boolean; updates_consent_words: string | null }>(
          "SELECT email, updates_consent, updates_consent_words FROM waitlist ORDER BY email",
        );

      // Still receiving: the button that stops, and leaving with this same link.
      const first = await (await call(new Request(ada))).text();
      expect(textOf(first)).toContain("Stop these updates One click and we stop sending you updates.");
      expect(first).toContain(`<form method="post" action="${self}"`);
      expect(first).toContain(`href="${self}&amp;leave">leave the waitlist altogether</a>`);
      // A token that is not the server's: the page as built, naming nobody's state.
      expect(await (await call(new Request(`${ORIGIN}/waitlist/unsubscribe?token=${newToken().token}`))).text()).toBe(
        readFileSync(unsubscribe, "utf8"),
      );

      // The page's button stops, and leads back to the page, which says so and offers them again.
      const stopped = await form(ada, "");
      expect(stopped.status).toBe(303);
      expect(stopped.headers.get("location")).toBe(ada.slice(ORIGIN.length));
      expect(await page(ada)).toContain(
        "You have stopped these updates We no longer send you updates. You stay on the waitlist",
      );
      expect(await page(ada)).toContain("Send me updates again");
      expect((await consent())[0]).toMatchObject({
        updates_consent: false,
        updates_consent_words: UNSUBSCRIBE_PAGE_WORDS,
      });

      // From another site: refused, nothing changes.
      expect((await form(ada, "updates=yes", "https://evil.example")).status).toBe(403);
      expect((await consent())[0]?.updates_consent).toBe(false);
      // Again, by the same token: recorded as consent, with the words the page showed.
      const again = await form(ada, "updates=yes");
      expect(again.headers.get("location")).toBe("/waitlist/resubscribed");
      expect((await consent())[0]).toMatchObject({
        updates_consent: true,
        updates_consent_words: UPDATES_WORDS_VERSION,
      });
      expect(await page(ada)).toContain("Stop these updates One click");

      // Leaving: the question deletes nothing; its button does, for this person only.
      expect(await page(`${ada}&leave`)).toContain("Leave the Noosphere waitlist? This deletes your address");
      expect((await consent()).map((r) => r.email)).toEqual(["ada@example.com", "bob@example.com"]);
      const left = await form(`${ada}&leave`, "action=leave");
      expect(left.headers.get("location")).toBe("/waitlist/removed");
      expect((await consent()).map((r) => r.email)).toEqual(["bob@example.com"]);
      // Her link now opens the page as built; a forged token leaves nobody.
      expect(
        (await form(`${ORIGIN}/waitlist/unsubscribe?token=${newToken().token}`, "action=leave")).headers.get(
          "location",
        ),
      ).toBe("/waitlist/link-invalid");
      expect((await consent()).map((r) => r.email)).toEqual(["bob@example.com"]);
      expect(bob).not.toBe(ada);
    });
  });
});
