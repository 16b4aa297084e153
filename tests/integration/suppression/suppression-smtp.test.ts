/**
 * The suppression list against a real SMTP server on loopback that answers per address as mailbox servers do:
 * `550 5.1.1 user unknown` suppresses the mailbox at once (its answer kept as evidence), `452 4.2.2 mailbox full`
 * three times within 30 days does too, and a suppressed address (in any case) is never handed to the server again
 * (its RCPT TOs are counted) until an operator lifts it, while the other addresses of its mailbox (a +tag, Gmail's
 * dots) are their own (issue 48: anyone may sign up someone's +tag at a server that refuses it). An update's refusals count against it, and the
 * next update skips the suppressed. On PGlite, PostgreSQL and Neon's HTTP protocol.
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { databaseKey } from "../../../src/server/crypto/keys";
import { createSmtpMailer } from "../../../src/server/mail/mailer";
import { createSuppressionStore, listKeysOf, suppressedMailer } from "../../../src/server/suppression";
import { createUpdateStore, sendUpdate, updatesKey } from "../../../src/server/updates";
import { backends } from "../../support/backends";
import { consentHarness, mailConfig } from "../../support/consent-harness";
import { startSmtp } from "../../support/smtp";

const GONE = "gone@example.com";
const FULL = "full@example.com";

describe.each(backends("suppression"))("the suppression list, on %s", (_name, available, open) => {
  const { state, signUp } = consentHarness(available, open);
  const answers = (address: string) =>
    address.toLowerCase() === GONE
      ? "550 5.1.1 <gone@example.com>: user unknown"
      : address.toLowerCase().startsWith("full")
        ? "452 4.2.2 mailbox full"
        : address.toLowerCase().startsWith("jdoe")
          ? "550 5.1.1 no such user"
          : undefined;
  /** Every RCPT TO the server was asked, by address as given. */
  const asked: string[] = [];
  const server = async () => {
    await state.smtp.close();
    state.smtp = await startSmtp({ answers, onRecipient: (address) => asked.push(address.toLowerCase()) });
    state.config = mailConfig(state.smtp.url);
  };
  const keyOf = async (store: Store, email: string) => listKeysOf(await databaseKey(store), email);
  const suppression = async (email: string) =>
    createSuppressionStore(state.store.db).get(await keyOf(state.store, email));

  it.skipIf(!available)("a 550 5.1.1 at RCPT TO suppresses the mailbox with the server's answer", async () => {
    await server();
    expect((await signUp(GONE)).status).toBe(201);
    expect(asked.filter((a) => a === GONE)).toHaveLength(1);
    const row = await suppression(GONE);
    expect(row).toMatchObject({
      reason: "hard_bounce",
      source: "smtp",
      evidence: "smtp: 550 5.1.1 <recipient>: user unknown",
      liftedAt: null,
    });
    // Keyed, never in clear: the address is nowhere in the list's tables.
    const [dump] = await state.store.db.query<{ text: string }>(
      "SELECT (SELECT string_agg(address_key, ',') FROM mail_suppression) || (SELECT string_agg(message_id || mailbox_key, ',') FROM mail_sent) AS text",
    );
    expect(dump?.text).not.toContain("gone");
  });

  it.skipIf(!available)("the suppressed address, in capitals, is never asked again; its +tag is its own", async () => {
    asked.length = 0;
    expect((await signUp("GONE@Example.com")).status).toBe(201);
    expect(asked).toEqual([]);
    expect((await signUp("Gone+later@Example.com")).status).toBe(201);
    expect(asked).toEqual(["gone+later@example.com"]);
    expect(state.smtp.messages.filter((m) => m.to.toLowerCase() === GONE)).toEqual([]);
  });

  it.skipIf(!available)("Gmail's other spellings of a bounced address are their own", async () => {
    asked.length = 0;
    await signUp("jdoe@gmail.com");
    expect(asked).toEqual(["jdoe@gmail.com"]);
    expect((await suppression("JDoe@gmail.com"))?.reason).toBe("hard_bounce");
    expect(await suppression("j.doe+x@googlemail.com")).toBeNull();
    await signUp("J.Doe+x@googlemail.com");
    expect(asked).toEqual(["jdoe@gmail.com", "j.doe+x@googlemail.com"]);
  });

  it.skipIf(!available)("452 4.2.2 is a soft bounce: the third within 30 days suppresses", async () => {
    const list = createSuppressionStore(state.store.db);
    const key = (await keyOf(state.store, FULL)).address;
    // An old one (31 days) does not count towards the three.
    await list.softBounce(key, "452 4.2.2 long ago");
    await state.store.db.query("UPDATE mail_soft_bounce SET at = now() - interval '31 days'");
    // Other addresses of the mailbox count for themselves, never for FULL.
    for (const address of ["full+a@example.com", "full+b@example.com", "full+c@example.com"]) await signUp(address);
    expect(await suppression(FULL)).toBeNull();
    await list.softBounce(key, "smtp: 452 4.2.2 mailbox full");
    await list.softBounce(key, "smtp: 452 4.2.2 mailbox full");
    expect(await suppression(FULL)).toBeNull();
    await state.store.db.query("DELETE FROM waitlist_mailbox_day");
    await signUp(FULL);
    expect(await suppression(FULL)).toMatchObject({ reason: "soft_bounces", evidence: "smtp: 452 4.2.2 mailbox full" });
    expect(await suppression("full+a@example.com")).toBeNull();
    asked.length = 0;
    await state.store.db.query("DELETE FROM waitlist_mailbox_day");
    await signUp("FULL@example.com");
    expect(asked).toEqual([]);
  });

  it.skipIf(!available)(
    "lifted by an operator, the mailbox is mailed again; a new bounce suppresses it again",
    async () => {
      const list = createSuppressionStore(state.store.db);
      expect(await list.lift(await keyOf(state.store, GONE), "admin@noosphere.test")).toBe(true);
      expect(await list.lift(await keyOf(state.store, GONE), "admin@noosphere.test")).toBe(false);
      asked.length = 0;
      await state.store.db.query("DELETE FROM waitlist_mailbox_day");
      await signUp(GONE);
      expect(asked).toEqual([GONE]);
      expect(await suppression(GONE)).toMatchObject({ reason: "hard_bounce", liftedAt: null, liftedBy: null });
    },
  );

  it.skipIf(!available)(
    "an update's 550s are its hard bounces, suppressed, and the next update skips them",
    async () => {
      await state.store.db.query("DELETE FROM waitlist");
      const people = ["ok-1@example.com", "ok-2@example.com", "ok-3@example.com", "dead@example.com"];
      for (const email of people) {
        await state.store.db.query(
          "INSERT INTO waitlist (email, status, updates_consent, updates_consent_at) VALUES ($1, 'confirmed', true, now())",
          [email],
        );
      }
      await state.smtp.close();
      asked.length = 0;
      state.smtp = await startSmtp({
        answers: (a) => (a === "dead@example.com" ? "550 5.1.1 dead mailbox" : undefined),
        onRecipient: (address) => asked.push(address.toLowerCase()),
      });
      state.config = mailConfig(state.smtp.url);
      const updates = createUpdateStore(state.store.db, state.store.dataKeys);
      const run = async (subject: string) => {
        const { id } = await updates.create(subject, "Hello.\n\nNews.", "CLI", null);
        const mail = state.config.mail;
        if (!mail) throw new Error("mail is off");
        const mailer = suppressedMailer(createSmtpMailer(mail), state.config, async () => state.store);
        try {
          const report = await sendUpdate(id, {
            updates,
            mailer,
            root: await updatesKey(state.store),
            site: "http://localhost:4321",
            owner: `test-${id}`,
            ratePerSecond: 0,
          });
          return { id, report };
        } finally {
          mailer.close();
        }
      };
      const first = await run("First");
      expect(first.report).toMatchObject({ sent: 3, failed: 1, skipped: 0 });
      expect(await createSuppressionStore(state.store.db).reputation(first.id)).toEqual({
        sent: 3,
        hardBounces: 1,
        softBounces: 0,
        complaints: 0,
      });
      expect(asked.filter((a) => a === "dead@example.com")).toHaveLength(1);
      const second = await run("Second");
      expect(second.report).toMatchObject({ sent: 3, failed: 0, skipped: 1 });
      expect(asked.filter((a) => a === "dead@example.com")).toHaveLength(1);
    },
  );
});
