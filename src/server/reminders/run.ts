/**
 * One reminder, never two: each pending sign-up due one (store.ts) is claimed first (a row written before the
 * e-mail goes: two runs at once send one, and a run that dies after the claim has sent at most one), then sent a
 * fresh confirmation link through the same issue as the confirmation itself (mail/send.ts: new tokens, the
 * mailbox's daily e-mails, the suppression list). Within a deadline: the scheduled function's 20 of its 30 s; the
 * CLI's none. CONFIRM_REMINDER_HOURS=0 turns reminders off.
 */
import { LINK_PATHS } from "../../lib/waitlist/consent";
import type { ServerConfig } from "../config";
import { countedMailboxKey, rootKey } from "../crypto/keys";
import { personOf } from "../data-key";
import type { Mailer } from "../mail/mailer";
import { confirmationEmail } from "../mail/messages";
import { issueAndSend } from "../mail/send";
import type { Store } from "../store/types";
import { createReminderStore } from "./store";

const BATCH = 50;

export interface ReminderRun {
  store: Store;
  config: ServerConfig;
  /** The guarded mailer (suppression/): null while mail is off. */
  mailer: Mailer | null;
  /** The site's origin, for the links. */
  site: string;
  /** When to stop starting new reminders (ms since the epoch); none: until nobody is due. */
  deadline?: number;
}

export interface ReminderReport {
  /** Reminders claimed and handed to the mailer by this run. */
  sent: number;
  /** Still due when the run stopped (its deadline). */
  remaining: number;
}

/** How many are due a reminder now (the CLI's dry run); 0 while reminders or mail are off. */
export async function remindersDue(store: Store, config: Pick<ServerConfig, "reputation">): Promise<number> {
  const hours = config.reputation.confirmReminderHours;
  return hours > 0 ? createReminderStore(store.db).count(hours) : 0;
}

/** The reminder: the confirmation e-mail with a fresh link, its subject saying it is a reminder. */
export const reminderEmail = (links: { confirm: string; remove: string; site: string }) => {
  const words = confirmationEmail(links);
  return { ...words, subject: `Reminder: ${words.subject}` };
};

export async function sendReminders(run: ReminderRun): Promise<ReminderReport> {
  const hours = run.config.reputation.confirmReminderHours;
  const report: ReminderReport = { sent: 0, remaining: 0 };
  if (hours <= 0 || !run.mailer) return report;
  const { store, mailer, site } = run;
  const reminders = createReminderStore(store.db);
  // The mailbox's day is counted under the server's root, as every e-mail's is (crypto/keys.ts).
  const root = await rootKey(run.config, store);
  for (;;) {
    if (run.deadline !== undefined && Date.now() >= run.deadline) break;
    const due = await reminders.due(hours, BATCH);
    if (due.length === 0) break;
    for (const row of due) {
      if (run.deadline !== undefined && Date.now() >= run.deadline) break;
      // Claimed before it goes: whatever happens next, this person is never reminded again.
      if (!(await reminders.claim(row.id, "confirm"))) continue;
      const { email } = personOf(store.dataKeys, row);
      await issueAndSend(
        "reminder",
        2,
        store.consent,
        countedMailboxKey(root, email),
        ([confirm = "", remove = ""]) => store.consent.issueConfirmation(email, confirm, remove),
        ([confirm = "", remove = ""]) =>
          mailer.send(
            email,
            reminderEmail({
              confirm: `${site}${LINK_PATHS.confirm}?token=${confirm}`,
              remove: `${site}${LINK_PATHS.remove}?token=${remove}`,
              site,
            }),
          ),
        (id, hashes) => store.consent.unsend(id, hashes, "confirm"),
      );
      report.sent++;
    }
  }
  report.remaining = await reminders.count(hours);
  return report;
}
