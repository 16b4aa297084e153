/**
 * Sending an update, one core for the console and the CLI, so its guarantees hold for both:
 * - every recipient at most once: one run sends an update at a time (its owner, taken by one UPDATE); a recipient
 *   is marked `sent` once the SMTP server accepted their message (its answer to the final "." read);
 * - nobody skipped: a run that dies or is cut (the platform's 60 s, a SIGKILL, an SMTP server that stops answering)
 *   leaves the rest `queued`, and the next run (the console's Continue, the CLI's same command) goes on from there;
 * - a recipient whose message was on its way when a run died (`attempted`: marked just before its last byte) is
 *   counted sent, not sent again, and recorded as unconfirmed. A run dies in that instant almost only while it
 *   waits for the server's answer to a message the server already has: sending it again would mail them twice,
 *   which an update must never do (invitations choose the other way: a code must arrive). Its Message-ID is the
 *   same each time anyway (message.ts), should a message ever go twice;
 * - a refusal for one address (a 5xx answer) is recorded on that recipient and the run goes on; a 4xx (throttled,
 *   greylisted) leaves them queued and stops the run, for the next one to try again;
 * - someone who stopped updates or left after the update was recorded is skipped, even while their message is on
 *   its way (checked before its last bytes);
 * - paced at MAIL_RATE_PER_SECOND (0: as fast as the server answers).
 */
import type { Mailer } from "../mail/mailer";
import { isRefusal, NoLongerHeld, reason } from "../mail/outcome";
import { isOwnerDead, PAUSED_OWNER } from "../run/owner";
import { budgetOf, spent, type WaveSlice } from "../run/slice";
import type { RootKey } from "../secret";
import { messageId, unsubscribeLink, unsubscribeToken, updateEmail } from "./message";
import type { UpdateStore } from "./store";

/** A live run beats with every message: five minutes of silence is death, as for waves. */
export const UPDATE_STALE_SECONDS = 300;
const BATCH = 100;
/** What a recipient's record says when their message was on its way as a run died, and is counted sent. */
export const IN_DOUBT = "unconfirmed: the run ended before the SMTP server's answer";

export interface UpdateRun {
  updates: UpdateStore;
  mailer: Mailer;
  root: RootKey;
  /** The site's origin: unsubscribe links and the Message-ID's domain. */
  site: string;
  owner: string;
  /** How much one run may do before it pauses (the console); none: to the end (the CLI). */
  slice?: WaveSlice;
  /** MAIL_RATE_PER_SECOND; 0: unpaced. */
  ratePerSecond: number;
  /** The clock and the wait of the pacing (tests drive them). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface UpdateReport {
  /** Messages this run had accepted by the SMTP server (an earlier run's unconfirmed one is counted on the update). */
  sent: number;
  failed: number;
  skipped: number;
  /** Why the run stopped early (the SMTP server could not be used); null when it did not. */
  stopped: string | null;
  /** Recipients still to be dealt with (0: the update is complete). */
  remaining: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends update `id` on from where it stands, within the run's slice; then completes it or, with people left,
 * pauses it for the next run. Null when another live run is sending it (nothing is sent).
 */
export async function sendUpdate(id: number, run: UpdateRun): Promise<UpdateReport | null> {
  const { updates, mailer, root, site } = run;
  const row = await updates.get(id, UPDATE_STALE_SECONDS);
  if (!row) return null;
  const report: UpdateReport = { sent: 0, failed: 0, skipped: 0, stopped: null, remaining: row.remaining };
  if (row.finished) return report;
  if (row.owner !== null && row.owner !== run.owner && !isOwnerDead(row.owner, row.stale ?? false)) return null;
  if (!(await updates.take(id, row.owner, run.owner))) return null;

  const now = run.now ?? Date.now;
  const sleep = run.sleep ?? wait;
  const interval = run.ratePerSecond > 0 ? 1000 / run.ratePerSecond : 0;
  let nextAt = now();
  const budget = budgetOf(run.slice);
  const draft = { subject: row.subject, body: row.body };
  sending: for (;;) {
    const batch = await updates.next(id, BATCH);
    if (batch.length === 0) break;
    for (const person of batch) {
      if (spent(budget)) break sending;
      if (budget) budget.dealt++;
      if (person.inDoubt) {
        await updates.done(id, person.id, "sent", IN_DOUBT, run.owner);
        continue;
      }
      if (!person.still) {
        await updates.done(id, person.id, "skipped", null, run.owner);
        report.skipped++;
        continue;
      }
      if (interval > 0) {
        const due = nextAt - now();
        if (due > 0) await sleep(due);
        nextAt = Math.max(nextAt, now()) + interval;
      }
      const message = updateEmail(draft, {
        unsubscribe: unsubscribeLink(site, unsubscribeToken(root, id, person.id)),
        site,
        messageId: messageId(root, site, id, person.id),
      });
      try {
        await mailer.send(person.email, message, {
          beforeCommit: async () => {
            if (!(await updates.attempted(id, person.id, run.owner))) throw new NoLongerHeld("stopped updates");
          },
        });
      } catch (error) {
        if (error instanceof NoLongerHeld) {
          await updates.done(id, person.id, "skipped", null, run.owner);
          report.skipped++;
          continue;
        }
        // A 5xx refuses this address for good: recorded, and the others go on. A 4xx (throttled, greylisted, a
        // mailbox busy) is for now: they stay queued and the run stops, for the next run to try again.
        if (isRefusal(error) && ((error as { responseCode?: number }).responseCode ?? 0) >= 500) {
          await updates.done(id, person.id, "failed", reason(error), run.owner);
          report.failed++;
          continue;
        }
        if (isRefusal(error)) await updates.requeue(id, person.id, run.owner);
        report.stopped = reason(error);
        break sending;
      }
      await updates.done(id, person.id, "sent", null, run.owner);
      report.sent++;
    }
  }
  const remaining = await updates.release(id, PAUSED_OWNER, run.owner);
  // Taken over meanwhile (this run fell silent past the staleness limit): the other run goes on.
  report.remaining = remaining ?? (await updates.get(id, UPDATE_STALE_SECONDS))?.remaining ?? 0;
  return report;
}
