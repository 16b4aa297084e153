/**
 * One reminder of an invitation, never two: an invited person whose unused code expires within
 * INVITE_REMINDER_DAYS gets the invitation again with a fresh code, and the first e-mail's code keeps working beside
 * it (either, once). Never someone who joined, invited less than a day ago, whose invitation expires within the
 * hour or later than the window, or anyone reminded already, even by two runs at once. A real SMTP server on
 * loopback; on PGlite, PostgreSQL and Neon's protocol.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createReminderStore, remindersDue, sendReminders } from "../../../src/server/reminders";
import { suppressedMailer } from "../../../src/server/suppression";
import { backends } from "../../support/backends";
import { ACCESS, inviteGround, MAIL_FROM, ORIGIN, TOKEN } from "../../support/invitations-harness";

describe.each(backends("invite_reminders"))("reminders of an invitation, on %s", (_name, available, open) => {
  const { g, seed, statuses, wave, codeOf, redeem } = inviteGround(available, open);
  const configWith = (extra: Record<string, string> = {}) =>
    readConfig({
      INVITE_REDEEM_TOKEN: TOKEN,
      EARLY_ACCESS_URL: ACCESS,
      SMTP_URL: g.smtp.url,
      MAIL_FROM,
      ...extra,
    });
  const run = () =>
    sendReminders({
      store: g.store,
      config: g.config,
      mailer: suppressedMailer(g.mailer, g.config, async () => g.store),
      site: ORIGIN,
    });
  /** Invited `invitedHours` ago, expiring in `expiresHours`. */
  const age = (email: string, invitedHours: number, expiresHours: number) =>
    g.store.db.query(
      `UPDATE waitlist SET invited_at = now() - make_interval(mins => $2),
        invite_expires_at = now() + make_interval(mins => $3) WHERE email = $1`,
      [email, invitedHours * 60, expiresHours * 60],
    );
  const reminders = () => g.smtp.messages.filter((m) => m.subject.startsWith("Reminder: "));
  const codeIn = (links: string[]) =>
    new URL(links.find((l) => l.startsWith("https://app.noosphere.test/")) ?? "http://x").searchParams.get("invite");

  it.runIf(available)(
    "one reminder to each due, with a fresh code; the first code works beside it; two runs at once send one each",
    async () => {
      const people = ["due@example.com", "due2@example.com", "joined@example.com", "new@example.com"];
      await seed(
        ...people.map((email): [string, string] => [email, "confirmed"]),
        ["far@example.com", "confirmed"],
        ["late@example.com", "confirmed"],
      );
      await wave(6);
      g.config = configWith();
      const firstDue = await codeOf("due@example.com");
      const firstDue2 = await codeOf("due2@example.com");
      expect((await redeem({ code: await codeOf("joined@example.com") })).status).toBe(200);
      for (const email of ["due@example.com", "due2@example.com", "joined@example.com"]) await age(email, 5 * 24, 48);
      await age("new@example.com", 2, 48);
      await age("far@example.com", 5 * 24, 10 * 24);
      await age("late@example.com", 5 * 24, 0.5);

      expect(await remindersDue(g.store, g.config)).toEqual({ confirm: 0, invite: 2 });
      const [a, b] = await Promise.all([run(), run()]);
      expect(a.invites + b.invites).toBe(2);
      expect(await run()).toEqual({ sent: 0, invites: 0, remaining: 0 });

      expect(
        reminders()
          .map((m) => m.to)
          .sort(),
      ).toEqual(["due2@example.com", "due@example.com"]);
      const reminder = reminders().find((m) => m.to === "due@example.com");
      expect(reminder?.subject).toBe("Reminder: Noosphere: your early access is ready");
      expect(reminder?.html).toContain("<title>Reminder: Noosphere: your early access is ready</title>");
      expect(reminder?.text).toContain("(it works once, for 2 days)");
      const fresh = codeIn(reminder?.links ?? []) ?? "";
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{27}$/);
      expect(fresh).not.toBe(firstDue);

      // The reminder's code, then the first one: either works, once.
      expect((await redeem({ code: fresh })).status).toBe(200);
      expect((await redeem({ code: firstDue })).status).toBe(409);
      expect((await redeem({ code: firstDue2 })).status).toBe(200);
      expect(await statuses()).toMatchObject({ "due@example.com": "joined", "due2@example.com": "joined" });
      expect(await createReminderStore(g.store.db).inviteOutcome()).toEqual({ reminded: 2, joined: 2 });
    },
  );

  it.runIf(available)("INVITE_REMINDER_DAYS=0, or no EARLY_ACCESS_URL, turns them off", async () => {
    await seed(["due@example.com", "confirmed"]);
    await wave(1);
    await age("due@example.com", 5 * 24, 48);
    for (const extra of [{ INVITE_REMINDER_DAYS: "0" }, { EARLY_ACCESS_URL: "" }]) {
      g.config = configWith(extra);
      expect(await remindersDue(g.store, g.config)).toEqual({ confirm: 0, invite: 0 });
      expect(await run()).toEqual({ sent: 0, invites: 0, remaining: 0 });
    }
    g.config = configWith();
    expect(await remindersDue(g.store, g.config)).toEqual({ confirm: 0, invite: 1 });
  });
});
