/**
 * A person's status page below the browser: no cookie, noindex and no-store, the same 404 for any wrong link, Leave
 * asking once, the line as a picture, sharing without loading anything, Create my account with a code that
 * redeems, the link again by e-mail. On PGlite, PostgreSQL and Neon's HTTP protocol, with a real SMTP server
 * (tests/support/referrals-harness.ts); the browser's side: tests/e2e/referrals.spec.ts.
 */
import { createHmac } from "node:crypto";
import type { Context } from "@netlify/functions";
import { describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { databaseKey } from "../../../src/server/crypto/keys";
import { createRedeemHandler } from "../../../src/server/invitations/redeem-handler";
import { statusToken } from "../../../src/server/updates/status-token";
import { backends } from "../../support/backends";
import { linkTo } from "../../support/consent-harness";
import { BARE_STATUS, configOf, ORIGIN, REDEEM_TOKEN, referralsGround, textOf } from "../../support/referrals-harness";

/** A deployer's SERVER_SECRET (`openssl rand -base64 32`). */
const SERVER_SECRET = "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is1V1sFbDwCgg=";

/**
 * The status page's code as round 5 made it without a server secret, from a copy of the database alone:
 * waitlist_secret's value (hex) as the root, HMAC(root, "invite-access") as the key, the first 12 bytes of
 * HMAC(key, "<id>.<expiry in ms>") after the id as 8 bytes, base64url.
 */
function copiedDatabaseCode(secretHex: string, id: number, expiresMs: number): string {
  const key = createHmac("sha256", Buffer.from(secretHex, "hex")).update("invite-access").digest();
  const mac = createHmac("sha256", key).update(`${id}.${expiresMs}`).digest().subarray(0, 12);
  const person = Buffer.alloc(8);
  person.writeBigUInt64BE(BigInt(id));
  return Buffer.concat([person, mac]).toString("base64url");
}

describe.each(backends("referrals_status"))("on %s", (_name, available, open) => {
  const { state, call, handlers, join, page, text, leave, codeOf, wave, reset } = referralsGround(available, open);
  /**
   * The attacker's side: the code the page's old derivation gives `email`, from only what a copy of the database
   * holds.
   */
  const forgedFromCopy = async (email: string) => {
    const [copied] = await state.store.db.query<{ secret: string; id: number; expires: string }>(
      `SELECT (SELECT value FROM waitlist_secret WHERE name = 'server') AS secret, id,
         floor(extract(epoch FROM invite_expires_at) * 1000)::bigint::text AS expires
       FROM waitlist WHERE email = $1`,
      [email],
    );
    return copiedDatabaseCode(copied?.secret ?? "", Number(copied?.id), Number(copied?.expires));
  };
  /** The product's redemption of `code`, with these settings. */
  const redeemAs = (extra: Record<string, string>) => {
    const redeemer = createRedeemHandler({
      store: async () => state.store,
      config: () => configOf(state.smtp.url, extra),
    });
    return (code: string) =>
      redeemer(
        new Request(`${ORIGIN}/api/invites/redeem`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${REDEEM_TOKEN}` },
          body: JSON.stringify({ code }),
        }),
        createContext(new Request(`${ORIGIN}/api/invites/redeem`), "198.51.100.9", new Set()) as unknown as Context,
      );
  };

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
      await reset({ SERVER_SECRET });
      const ann = await join("ann@example.com");
      await wave(1);
      const { html } = await page(ann);
      const href = /<a id="create-account" href="([^"]*)"/.exec(html)?.[1] ?? "";
      expect(href).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?invite=[A-Za-z0-9_-]{27}$/);
      expect(textOf(html)).toContain("Create my account");
      expect(textOf(html)).toContain("It carries your invitation’s code, which works once, until");
      // The page's code is derived (its MAC under SERVER_SECRET), never stored: the product redeems it once,
      // and one character changed is an unknown code.
      const code = new URL(href).searchParams.get("invite") ?? "";
      const redeemer = createRedeemHandler({
        store: async () => state.store,
        config: () => configOf(state.smtp.url, { INVITE_REDEEM_TOKEN: REDEEM_TOKEN, SERVER_SECRET }),
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
      expect(html).toContain('<a href="#main" class="rounded-full px-4">You are invited</a>');

      // Invited again (another invitation, another end): the old page's code is unknown, the page has a new one.
      const [row] = await state.store.db.query<{ id: number }>(
        "UPDATE waitlist SET status = 'invited', invite_expires_at = invite_expires_at + interval '1 day' WHERE email = 'ann@example.com' RETURNING id",
      );
      expect((await redeem(code)).status).toBe(404);
      const again = /<a id="create-account" href="([^"]*)"/.exec((await page(ann)).html)?.[1] ?? "";
      expect(again).toMatch(/\?invite=[A-Za-z0-9_-]{27}$/);
      expect(again).not.toBe(href);
      // Opened by the link an update carries (bulk e-mail, forwarded): the button, but no code on the page.
      const fromUpdate = `${ORIGIN}/waitlist/status?token=${statusToken(await databaseKey(state.store), Number(row?.id))}`;
      const forwarded = (await page(fromUpdate)).html;
      expect(forwarded).toContain('<a id="create-account" href="https://app.noosphere.test/signup"');
      expect(textOf(forwarded)).toContain("It asks for the code in your invitation e-mail");
      state.config = configOf(state.smtp.url, { EARLY_ACCESS_URL: "", SERVER_SECRET });
      expect((await page(ann)).html).not.toContain("create-account");
    });

    it("without SERVER_SECRET, a copy of the database mints no working code: the page shows none and says why", async () => {
      await reset();
      const ann = await join("ann@example.com");
      await wave(1);
      const forged = await forgedFromCopy("ann@example.com");
      const redeem = redeemAs({ INVITE_REDEEM_TOKEN: REDEEM_TOKEN });
      const refused = await redeem(forged);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error:
          "Codes from status pages are not accepted until SERVER_SECRET is set; the code in the invitation e-mail works.",
      });

      const { html } = await page(ann);
      expect(html).toContain('<a id="create-account" href="https://app.noosphere.test/signup"');
      expect(html).not.toContain("invite=");
      expect(textOf(html)).toContain(
        "This page cannot carry your invitation’s code yet: this site has not finished its security setup, and until it has, a code shown here would not be safe. Use the code in your invitation e-mail; that e-mail’s own button fills it in for you.",
      );
      // The invitation e-mail's own code (random, kept as a hash) still works without SERVER_SECRET.
      const [mail] = (await state.smtp.waitFor("ann@example.com", 3)).slice(-1);
      const emailed = new URL(mail?.links.find((l) => l.includes("invite=")) ?? "").searchParams.get("invite") ?? "";
      const joined = await redeem(emailed);
      expect(joined.status).toBe(200);
      expect(await joined.json()).toEqual({ email: "ann@example.com", name: null });
    });

    it("with SERVER_SECRET, the page's code redeems and the copy's does not", async () => {
      await reset({ SERVER_SECRET });
      const ann = await join("ann@example.com");
      await wave(1);
      const forged = await forgedFromCopy("ann@example.com");
      const redeem = redeemAs({ INVITE_REDEEM_TOKEN: REDEEM_TOKEN, SERVER_SECRET });
      expect((await redeem(forged)).status).toBe(404);
      const href = /<a id="create-account" href="([^"]*)"/.exec((await page(ann)).html)?.[1] ?? "";
      const code = new URL(href).searchParams.get("invite") ?? "";
      expect(code).not.toBe(forged);
      const joined = await redeem(code);
      expect(joined.status).toBe(200);
      expect(await joined.json()).toEqual({ email: "ann@example.com", name: null });
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
