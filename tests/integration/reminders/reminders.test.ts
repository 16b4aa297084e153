/**
 * One reminder, never two: a pending sign-up older than CONFIRM_REMINDER_HOURS gets one e-mail with a fresh
 * confirmation link that works; never the suppressed, the confirmed, anyone mailed in the last hour, a sign-up from
 * months ago, or anyone reminded already, even by two runs at once. A real SMTP server on loopback counts what
 * arrives. On PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { RootKey } from "../../../src/server/crypto/secret";
import { addressKey, mailboxKey } from "../../../src/server/mail/mailbox";
import { createSmtpMailer } from "../../../src/server/mail/mailer";
import { createReminderStore, remindersDue, sendReminders } from "../../../src/server/reminders";
import { createSuppressionStore, suppressedMailer } from "../../../src/server/suppression";
import { backends } from "../../support/backends";
import { consentHarness, linkTo, mailConfig, ORIGIN } from "../../support/consent-harness";

describe.each(backends("reminders").slice(0, 2))("reminders, on %s", (_name, available, open) => {
  const { state, signUp, pressButton, statusOf } = consentHarness(available, open);
  const run = async () => {
    const mail = state.config.mail;
    if (!mail) throw new Error("mail is off");
    const mailer = suppressedMailer(createSmtpMailer(mail), state.config, async () => state.store);
    try {
      return await sendReminders({ store: state.store, config: state.config, mailer, site: ORIGIN });
    } finally {
      mailer.close();
    }
  };
  const age = (email: string, hours: number) =>
    state.store.db.query(
      `UPDATE waitlist SET created_at = now() - make_interval(hours => $2),
        confirmation_sent_at = now() - make_interval(hours => $2) WHERE email = $1`,
      [email, hours],
    );

  it.skipIf(!available)(
    "one reminder to the one due, with a link that confirms; two runs at once send one",
    async () => {
      for (const email of [
        "due@example.com",
        "fresh@example.com",
        "old@example.com",
        "gone@example.com",
        "busy@example.com",
      ]) {
        expect((await signUp(email)).status).toBe(201);
      }
      await age("due@example.com", 25);
      await age("gone@example.com", 25);
      await age("busy@example.com", 25);
      await age("old@example.com", 24 * 5);
      // Their confirmations went out a day ago, but busy@'s, which went out 10 minutes ago.
      await state.store.db.query("UPDATE mail_sent SET sent_at = now() - interval '25 hours'");
      const root = (await state.store.secret()) as RootKey;
      await state.store.db.query(
        "UPDATE mail_sent SET sent_at = now() - interval '10 minutes' WHERE mailbox_key = $1",
        [mailboxKey(root, "busy@example.com")],
      );
      await createSuppressionStore(state.store.db).suppress(
        addressKey(root, "gone@example.com"),
        "complaint",
        "x",
        "test",
      );

      expect(await remindersDue(state.store, state.config)).toEqual({ confirm: 1, invite: 0 });
      const [a, b] = await Promise.all([run(), run()]);
      expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(1);
      expect(await run()).toEqual({ sent: 0, invites: 0, remaining: 0 });

      const reminders = state.smtp.messages.filter((m) => m.subject.startsWith("Reminder: "));
      expect(reminders.map((m) => m.to)).toEqual(["due@example.com"]);
      const [reminder] = reminders;
      if (!reminder) throw new Error("no reminder");
      expect((await pressButton(linkTo(reminder, "/waitlist/confirm"))).status).toBe(303);
      expect(await statusOf("due@example.com")).toBe("confirmed");
      expect(await createReminderStore(state.store.db).outcome()).toEqual({ reminded: 1, confirmed: 1 });
    },
  );

  it.skipIf(!available)("CONFIRM_REMINDER_HOURS=0 turns them off", async () => {
    await signUp("later@example.com");
    await age("later@example.com", 30);
    const root = (await state.store.secret()) as RootKey;
    await state.store.db.query("UPDATE mail_sent SET sent_at = now() - interval '30 hours' WHERE mailbox_key = $1", [
      mailboxKey(root, "later@example.com"),
    ]);
    state.config = mailConfig(state.smtp.url, { CONFIRM_REMINDER_HOURS: "0" });
    expect(await remindersDue(state.store, state.config)).toEqual({ confirm: 0, invite: 0 });
    expect(await run()).toEqual({ sent: 0, invites: 0, remaining: 0 });
    state.config = mailConfig(state.smtp.url);
    expect(await remindersDue(state.store, state.config)).toEqual({ confirm: 1, invite: 0 });
  });
});
