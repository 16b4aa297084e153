/**
 * `npm run waitlist -- reminders [--yes]`: the confirmation reminders the scheduled function sends every 10
 * minutes, now. A dry run says how many are due; --yes sends them (each claimed before it goes: a run at the same
 * time as the scheduled function sends nobody twice) and says how many, and how many confirmed after one so far.
 */

import type { Store } from "../../src/server/app/store";
import { audit } from "../../src/server/audit";
import type { ServerConfig } from "../../src/server/config";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { createReminderStore, remindersDue, sendReminders } from "../../src/server/reminders";
import { suppressedMailer } from "../../src/server/suppression";
import { SITE } from "../../src/site";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

export async function reminders(store: Store, config: ServerConfig, source: string, yes: boolean): Promise<number> {
  const hours = config.reputation.confirmReminderHours;
  if (hours === 0) {
    console.log("Reminders are off (CONFIRM_REMINDER_HOURS=0): nothing to send.");
    return 0;
  }
  if (!config.mail) {
    console.log("E-mail is off (SMTP_URL and MAIL_FROM): nobody is pending, nothing to send.");
    return 0;
  }
  const due = await remindersDue(store, config);
  const { reminded, confirmed } = await createReminderStore(store.db).outcome();
  const sofar = `${plural(confirmed, "person", "people")} of ${plural(reminded, "reminded", "reminded")} confirmed after their reminder so far`;
  if (!yes) {
    console.log(
      `Dry run: ${plural(due, "pending sign-up is", "pending sign-ups are")} due a reminder (older than ${hours} h, never reminded, not suppressed, not mailed in the last hour) in ${source}; ${sofar}. Run again with --yes to send them.`,
    );
    return 0;
  }
  const mailer = suppressedMailer(createSmtpMailer(config.mail, { pool: true }), config, async () => store);
  const report = await sendReminders({ store, config, mailer, site: config.siteUrl ?? SITE.url }).finally(() =>
    mailer.close(),
  );
  await audit(store.db, "CLI", "reminders", { sent: report.sent });
  console.log(`Sent ${plural(report.sent, "reminder", "reminders")} in ${source}; ${sofar}.`);
  return 0;
}
