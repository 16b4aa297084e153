/**
 * A stranger cannot silence a subscriber (issue 48, items 4 and 5): `ceo@corp.test` confirmed, then someone signs up
 * `ceo+zz@corp.test` at a real SMTP server on loopback that answers 550 at RCPT TO for the tagged address only. The
 * bounce suppresses that address, never `ceo@corp.test`, who stays mailable. Under DATA_KEY, the evidence kept in the
 * list's tables names nobody: a dump of them holds neither address nor its local part. On every backend.
 */
import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { databaseKey } from "../../../src/server/crypto/keys";
import { parseDataKey } from "../../../src/server/data-key";
import { createSmtpMailer } from "../../../src/server/mail/mailer";
import { createSuppressionStore, listKeysOf, mailGuard, suppressedMailer } from "../../../src/server/suppression";
import { backends } from "../../support/backends";
import { consentHarness, linkTo, mailConfig } from "../../support/consent-harness";
import { startSmtp } from "../../support/smtp";

const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const CEO = "ceo@corp.test";
const STRANGER = "ceo+zz@corp.test";
const LEAK = "alice.sealed+leak@corp.test";
const REFUSED = new Set([STRANGER, LEAK]);

describe.each(backends("exactaddress"))(
  "a bounce suppresses the address that bounced, on %s",
  (_n, available, open) => {
    // The same database as a deploy with DATA_KEY set sees it: every row sealed.
    const sealed = async () => {
      const opened = await open();
      return { ...opened, store: createStore(opened.store.db, { current: parseDataKey(DATA_KEY), previous: null }) };
    };
    const { state, signUp, pressButton } = consentHarness(available, sealed);
    const asked: string[] = [];
    const server = async () => {
      await state.smtp.close();
      state.smtp = await startSmtp({
        answers: (address) =>
          REFUSED.has(address.toLowerCase())
            ? `550 5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`
            : undefined,
        onRecipient: (address) => asked.push(address.toLowerCase()),
      });
      state.config = mailConfig(state.smtp.url);
    };
    const suppression = async (email: string) =>
      createSuppressionStore(state.store.db).get(listKeysOf(await databaseKey(state.store), email));

    it.skipIf(!available)("ceo+zz@ bouncing leaves the confirmed ceo@ mailable", async () => {
      await server();
      expect((await signUp(CEO)).status).toBe(201);
      const [confirmation] = await state.smtp.waitFor(CEO, 1);
      expect((await pressButton(linkTo(confirmation ?? ({} as never), "/waitlist/confirm"))).status).toBe(303);
      expect((await signUp(STRANGER)).status).toBe(201);
      // ceo@'s confirmation and welcome, then the stranger's confirmation, refused.
      expect(asked).toEqual([CEO, CEO, STRANGER]);

      expect(await suppression(STRANGER)).toMatchObject({
        reason: "hard_bounce",
        source: "smtp",
        evidence: "smtp: 550 5.1.1 <recipient>: Recipient address rejected: User unknown in virtual mailbox table",
      });
      expect(await suppression(CEO)).toBeNull();
      const rows = await state.store.db.query<{ status: string; mail_suppressed: boolean }>(
        "SELECT status, mail_suppressed FROM waitlist ORDER BY id",
      );
      expect(rows).toEqual([
        { status: "confirmed", mail_suppressed: false },
        { status: "pending", mail_suppressed: true },
      ]);
      const guard = mailGuard(state.store, state.config);
      expect([await guard.suppressed(CEO), await guard.suppressed("CEO+ZZ@corp.test")]).toEqual([false, true]);

      // The product's own mail still reaches ceo@: the door every sender goes through hands it to the server.
      const mail = state.config.mail;
      if (!mail) throw new Error("mail is off");
      const mailer = suppressedMailer(createSmtpMailer(mail), state.config, async () => state.store);
      try {
        await mailer.send(CEO, { subject: "Still here", text: "Hello.", html: "<p>Hello.</p>" });
      } finally {
        mailer.close();
      }
      expect(asked).toEqual([CEO, CEO, STRANGER, CEO]);
      expect(state.smtp.messages.filter((m) => m.to === CEO).map((m) => m.subject)).toEqual([
        "Confirm your place on the Noosphere waitlist",
        "Your place on the Noosphere waitlist",
        "Still here",
      ]);
    });

    it.skipIf(!available)("under DATA_KEY, the evidence kept names nobody", async () => {
      expect((await signUp(LEAK)).status).toBe(201);
      expect(asked.at(-1)).toBe(LEAK);
      const [dump] = await state.store.db.query<{ text: string }>(
        `SELECT concat_ws(E'\\n', (SELECT string_agg(s::text, E'\\n') FROM mail_suppression s),
        (SELECT string_agg(e::text, E'\\n') FROM mail_event e), (SELECT string_agg(b::text, E'\\n') FROM mail_soft_bounce b),
        (SELECT string_agg(m::text, E'\\n') FROM mail_sent m)) AS text`,
      );
      const text = dump?.text ?? "";
      expect(text).toContain("550 5.1.1 <recipient>: Recipient address rejected");
      for (const clear of [LEAK, "alice.sealed", STRANGER, "ceo+zz", "corp.test"]) expect(text).not.toContain(clear);
      expect((await suppression(LEAK))?.evidence).toBe(
        "smtp: 550 5.1.1 <recipient>: Recipient address rejected: User unknown in virtual mailbox table",
      );
    });
  },
);
