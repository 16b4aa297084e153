/**
 * `npm run waitlist -- reminders [--yes]`: the reminders the scheduled function sends every 10 minutes, now (to
 * confirm, and of an unused invitation). A dry run says how many are due; --yes sends them (each claimed before it
 * goes: a run at the same time as the scheduled function sends nobody twice) and says how many, and how many
 * confirmed or joined after one so far.
 */

import { counted } from "../../src/lib/plural";
import type { Store } from "../../src/server/app/store";
import { ACTOR, audit } from "../../src/server/audit";
import type { ServerConfig } from "../../src/server/config";
import { earlyAccessBase } from "../../src/server/invitations";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { createReminderStore, remindersDue, sendReminders } from "../../src/server/reminders";
import { suppressedMailer } from "../../src/server/suppression";
import { SITE } from "../../src/site";

export async function reminders(store: Store, config: ServerConfig, source: string, yes: boolean): Promise<number> {
  const { confirmReminderHours: hours, inviteReminderDays: days } = config.reminders;
  if (hours === 0 && days === 0) {
    console.log("Reminders are off (CONFIRM_REMINDER_HOURS=0 and INVITE_REMINDER_DAYS=0): nothing to send.");
    return 0;
  }
  if (!config.mail) {
    console.log("E-mail is off (SMTP_URL and MAIL_FROM): nobody is pending, nothing to send.");
    return 0;
  }
  const due = await remindersDue(store, config);
  const reminded = store.of(createReminderStore);
  const [confirmed, joined] = await Promise.all([reminded.outcome(), reminded.inviteOutcome()]);
  const sofar = `so far ${counted(confirmed.confirmed, "person", "people")} of ${confirmed.reminded.toLocaleString("en")} reminded confirmed after their reminder, ${joined.joined.toLocaleString("en")} of ${joined.reminded.toLocaleString("en")} joined after an invitation's`;
  const kinds = [
    hours > 0
      ? `${counted(due.confirm, "pending sign-up", "pending sign-ups")} to confirm (older than ${hours} h)`
      : "none to confirm (CONFIRM_REMINDER_HOURS=0)",
    days > 0
      ? usableAccessUrl(config.earlyAccessUrl)
        ? `${counted(due.invite, "invited person", "invited people")} of an invitation expiring within ${days} days`
        : "none of invitations (EARLY_ACCESS_URL is not set, or not an http(s) address)"
      : "none of invitations (INVITE_REMINDER_DAYS=0)",
  ];
  if (!yes) {
    console.log(
      `Dry run: due a reminder in ${source} (never reminded, not suppressed, not mailed in the last hour): ${kinds.join("; ")}. ${capital(sofar)}. Run again with --yes to send them.`,
    );
    return 0;
  }
  const mailer = suppressedMailer(createSmtpMailer(config.mail, { pool: true }), config, async () => store);
  const report = await sendReminders({ store, config, mailer, site: config.siteUrl ?? SITE.url }).finally(() =>
    mailer.close(),
  );
  await audit(store.db, ACTOR.cli, "reminders", { sent: report.sent, invites: report.invites });
  console.log(
    `Sent ${counted(report.sent, "reminder", "reminders")} to confirm and ${counted(report.invites, "reminder", "reminders")} of an invitation in ${source}; ${sofar}.`,
  );
  return 0;
}

/** Whether EARLY_ACCESS_URL can carry an invitation's link, as the reminders themselves decide (earlyAccessBase). */
const usableAccessUrl = (value: string | null) => {
  try {
    earlyAccessBase(value);
    return true;
  } catch {
    return false;
  }
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
