/**
 * One reminder, never two: each person due one (store.ts) is claimed first (a row written before the e-mail goes:
 * two runs at once send one, and a run that dies after the claim has sent at most one), then mailed through the
 * guarded mailer (the suppression list). Within a deadline: the scheduled function's 20 of its 30 s; the CLI's none.
 * - To confirm: the confirmation itself, sent again as a reminder (mail/send.ts: new tokens, the mailbox's daily
 *   e-mails). CONFIRM_REMINDER_HOURS=0 turns them off.
 * - Of an invitation: the invitation again, with a fresh code beside the first (only codes' hashes are kept) and
 *   the days it has left. INVITE_REMINDER_DAYS=0 turns them off, as does an unset EARLY_ACCESS_URL (no link to give).
 */
import { LINK_PATHS } from "../../lib/waitlist/consent";
import type { ServerConfig } from "../config";
import { rootKey } from "../crypto/keys";
import { newToken } from "../crypto/tokens";
import { personOf, type StoredPerson } from "../data-key";
import { earlyAccessBase, inviteLink, newInviteCode, statusLink } from "../invitations";
import { Suppressed } from "../mail/guard";
import { countedMailboxKey } from "../mail/mailbox";
import type { Mailer } from "../mail/mailer";
import { invitationEmail, REMINDER_PREFIX } from "../mail/messages";
import { isRefusal } from "../mail/outcome";
import { sendConfirmation } from "../mail/send";
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
  /** Reminders to confirm claimed and handed to the mailer by this run. */
  sent: number;
  /** Reminders of an invitation claimed and handed to the mailer by this run. */
  invites: number;
  /** Still due when the run stopped (its deadline), of either kind. */
  remaining: number;
}

type ReminderConfig = Pick<ServerConfig, "reminders" | "earlyAccessUrl">;

/** EARLY_ACCESS_URL when invitation reminders are on and it can be used; null: they are off. */
function inviteReminderBase(config: ReminderConfig): URL | null {
  if (config.reminders.inviteReminderDays <= 0) return null;
  try {
    return earlyAccessBase(config.earlyAccessUrl);
  } catch {
    return null;
  }
}

/** How many are due a reminder now, of each kind (the CLI's dry run); 0 for a kind that is off. */
export async function remindersDue(store: Store, config: ReminderConfig): Promise<{ confirm: number; invite: number }> {
  const { confirmReminderHours: hours, inviteReminderDays: days } = config.reminders;
  const reminders = store.of(createReminderStore);
  return {
    confirm: hours > 0 ? await reminders.count(hours) : 0,
    invite: inviteReminderBase(config) ? await reminders.inviteCount(days) : 0,
  };
}

/** The invitation again, its subject saying it is a reminder; `days`: how many its code has left. */
const inviteReminderEmail = (links: Parameters<typeof invitationEmail>[0]) => invitationEmail(links, REMINDER_PREFIX);

const DAY_MS = 86_400_000;
const out = (run: ReminderRun) => run.deadline !== undefined && Date.now() >= run.deadline;

/** Both kinds, reminders to confirm first (the older promise), within the run's deadline. */
export async function sendReminders(run: ReminderRun): Promise<ReminderReport> {
  const report: ReminderReport = { sent: 0, invites: 0, remaining: 0 };
  if (!run.mailer) return report;
  await sendConfirmReminders(run, run.mailer, report);
  await sendInviteReminders(run, run.mailer, report);
  const due = await remindersDue(run.store, run.config);
  report.remaining = due.confirm + due.invite;
  return report;
}

/**
 * The one loop of both kinds: batches of those `due` finds, each claimed for `kind` before `remind` mails them at
 * their address (whatever happens next, they are never reminded of it again), until nobody is due or the deadline
 * passes.
 */
async function remindEach<Row extends StoredPerson & { id: number }>(
  run: ReminderRun,
  kind: "confirm" | "invite",
  due: () => Promise<Row[]>,
  remind: (row: Row, email: string) => Promise<void>,
): Promise<void> {
  const reminders = run.store.of(createReminderStore);
  for (;;) {
    if (out(run)) return;
    const batch = await due();
    if (batch.length === 0) return;
    for (const row of batch) {
      if (out(run)) return;
      if (await reminders.claim(row.id, kind)) await remind(row, personOf(run.store.dataKeys, row).email);
    }
  }
}

async function sendConfirmReminders(run: ReminderRun, mailer: Mailer, report: ReminderReport): Promise<void> {
  const hours = run.config.reminders.confirmReminderHours;
  if (hours <= 0) return;
  const { store, site } = run;
  const reminders = store.of(createReminderStore);
  // The mailbox's day is counted under the server's root, as every e-mail's is (crypto/keys.ts).
  const root = await rootKey(run.config, store);
  await remindEach(
    run,
    "confirm",
    () => reminders.due(hours, BATCH),
    async (_row, email) => {
      await sendConfirmation(
        store.consent,
        mailer,
        { email, site, mailboxKey: countedMailboxKey(root, email) },
        "reminder",
      );
      report.sent++;
    },
  );
}

async function sendInviteReminders(run: ReminderRun, mailer: Mailer, report: ReminderReport): Promise<void> {
  const base = inviteReminderBase(run.config);
  if (!base) return;
  const days = run.config.reminders.inviteReminderDays;
  const { store, site } = run;
  const reminders = store.of(createReminderStore);
  await remindEach(
    run,
    "invite",
    () => reminders.inviteDue(days, BATCH),
    async (row, email) => {
      const { code, hash } = newInviteCode();
      const [leave, status] = [newToken(), newToken()];
      // Joined or removed since it was found due: claimed all the same, so never reminded.
      const expires = await reminders.inviteCode(row.id, hash, leave.hash, status.hash);
      if (!expires) return;
      const message = inviteReminderEmail({
        access: inviteLink(base, code),
        remove: `${site}${LINK_PATHS.remove}?token=${leave.token}`,
        status: statusLink(site, status.token),
        site,
        ttlDays: Math.max(1, Math.ceil((expires.getTime() - Date.now()) / DAY_MS)),
        confirmedByLink: row.confirmedByLink,
      });
      // Refused (a bounce, which the guard records) or suppressed since it was found due: that was this person's one
      // reminder; the others go on. Any other failure (the server unreachable) ends the run, this person's claim
      // kept: one reminder, never two.
      try {
        await mailer.send(email, message);
        report.invites++;
      } catch (error) {
        if (!isRefusal(error) && !(error instanceof Suppressed)) throw error;
      }
    },
  );
}
