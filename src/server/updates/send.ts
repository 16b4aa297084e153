/**
 * Sending an update, one core for the console and the CLI, so its guarantees hold for both:
 * - every recipient at most once: one run sends an update at a time (its owner, taken by one UPDATE); a recipient
 *   is marked `sent` once the SMTP server accepted their message (its answer to the final "." read);
 * - nobody skipped: a run that dies or is cut (the end of a background function's 15 minutes, a SIGKILL, an SMTP server that stops answering)
 *   leaves the rest `queued`, and the next run (the console's Continue, the CLI's same command) goes on from there;
 * - a recipient whose message was on its way when a run died (`attempted`: marked just before its last byte) is
 *   counted sent, not sent again, and recorded as unconfirmed. A run dies in that instant almost only while it
 *   waits for the server's answer to a message the server already has: sending it again would mail them twice,
 *   which an update must never do (invitations choose the other way: a code must arrive). Its Message-ID is the
 *   same each time anyway (message.ts), should a message ever go twice;
 * - a refusal of one address (a 5xx answer to its RCPT TO) is recorded on that recipient and the run goes on; "not
 *   now" for one address (a 4xx to its RCPT TO: greylisted, a mailbox full) moves them behind the others, for the
 *   next run, and the third one fails them (recorded), so no one address holds up the rest. Any other refusal (at
 *   the greeting, MAIL FROM or the message itself: the account or the message, the same for everyone), a 421, no
 *   answer, or ten "not now"s in a row (a throttle, not ten mailboxes) stops the run with everyone left queued;
 * - a run that finds the update taken over by another (it fell silent past the staleness limit), paused or cancelled
 *   stops at once: every record below checks the run still holds it (the lease is the long-job core's, jobs/);
 * - someone who stopped updates or left after the update was recorded is skipped, even while their message is on
 *   its way (checked before its last bytes);
 * - paced at MAIL_RATE_PER_SECOND (0: as fast as the server answers).
 */

import type { DatabaseKey } from "../crypto/keys";
import { budgetOf, JOB_STALE_SECONDS, type JobSlice, keepAlive, releaseJob, spent, takeJob } from "../jobs";
import type { Mailer } from "../mail/mailer";
import { isRefusal, NoLongerHeld, reason } from "../mail/outcome";
import { messageId, unsubscribeLink, unsubscribeToken, updateEmail } from "./message";
import { statusPageLink } from "./status-token";
import type { UpdateStore } from "./store";

/** A live run beats with every message; its silence is judged by the one rule of every long job (jobs/lease.ts). */
export const UPDATE_STALE_SECONDS = JOB_STALE_SECONDS;
const BATCH = 100;
/** "Not now" this many times for one address fails it (recorded): a run never waits on one mailbox for ever. */
export const MAX_TRIES = 3;
/** This many addresses in a row told "not now" is the server throttling the account: the run stops. */
export const DEFERRED_IN_A_ROW = 10;
/** The SMTP step an error answered: RCPT TO is about one address; anything else about the account or the message. */
const perAddress = (error: unknown) => (error as { command?: string }).command === "RCPT TO";
/** What a recipient's record says when their message was on its way as a run died, and is counted sent. */
export const IN_DOUBT = "unconfirmed: the run ended before the SMTP server's answer";

export interface UpdateRun {
  updates: UpdateStore;
  mailer: Mailer;
  /** The database's secret (updatesKey): the unsubscribe and status links, the Message-IDs. */
  root: DatabaseKey;
  /** The site's origin: unsubscribe and status links, and the Message-ID's domain. */
  site: string;
  owner: string;
  /** How much one run may do before it lets go (a background invocation's time); none: to the end (the CLI). */
  slice?: JobSlice;
  /** MAIL_RATE_PER_SECOND; 0: unpaced. */
  ratePerSecond: number;
  /** Told after each recipient is dealt with: how many this run has dealt with, of those left when it began. */
  onProgress?: (dealt: number, total: number) => void;
  /** The clock and the wait of the pacing (tests drive them). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface UpdateReport {
  /** Messages this run had accepted by the SMTP server (an earlier run's unconfirmed one is counted on the update). */
  sent: number;
  failed: number;
  skipped: number;
  /** Addresses whose server said "not now" in this run: still queued, behind the others. */
  deferred: number;
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
  const report: UpdateReport = { sent: 0, failed: 0, skipped: 0, deferred: 0, stopped: null, remaining: row.remaining };
  if (row.finished) return report;
  if (!(await takeJob(updates.db, "update", id, run.owner))) return null;

  const now = run.now ?? Date.now;
  const sleep = run.sleep ?? wait;
  const interval = run.ratePerSecond > 0 ? 1000 / run.ratePerSecond : 0;
  let nextAt = now();
  const budget = budgetOf(run.slice);
  const draft = { subject: row.subject, body: row.body };
  // Those this run was told "not now" for: tried again by the next run, not this one.
  const deferred = new Set<number>();
  let inARow = 0;
  let dealt = 0;
  const progressed = () => run.onProgress?.(++dealt, row.remaining);
  // Beats while a step waits (an SMTP answer, the pacing), so a slow server never makes a live run look dead.
  const stopBeating = keepAlive(updates.db, "update", id, run.owner);
  try {
    sending: for (;;) {
      const batch = await updates.next(id, BATCH, [...deferred]);
      if (batch.length === 0) break;
      for (const person of batch) {
        if (spent(budget)) break sending;
        if (budget) budget.dealt++;
        // Each record below is the run's own while it holds the update; one that is not (false, null) means another
        // run took it over: this one stops, or it would meet the same people again and again.
        if (person.inDoubt) {
          if (!(await updates.done(id, person.id, "sent", IN_DOUBT, run.owner))) break sending;
          progressed();
          continue;
        }
        if (!person.still) {
          if (!(await updates.done(id, person.id, "skipped", null, run.owner))) break sending;
          report.skipped++;
          progressed();
          continue;
        }
        if (interval > 0) {
          const due = nextAt - now();
          if (due > 0) await sleep(due);
          nextAt = Math.max(nextAt, now()) + interval;
        }
        const words = updateEmail(draft, {
          unsubscribe: unsubscribeLink(site, unsubscribeToken(root, id, person.id)),
          status: statusPageLink(root, site, person.id),
          site,
          messageId: messageId(root, site, id, person.id),
        });
        // Named as this update's, so what comes back for it counts against it (src/server/suppression/).
        const message = { ...words, update: id };
        try {
          await mailer.send(person.email, message, {
            beforeCommit: async () => {
              if (!(await updates.attempted(id, person.id, run.owner))) throw new NoLongerHeld("stopped updates");
            },
          });
        } catch (error) {
          if (error instanceof NoLongerHeld) {
            if (!(await updates.done(id, person.id, "skipped", null, run.owner))) break sending;
            report.skipped++;
            progressed();
            continue;
          }
          const code = (error as { responseCode?: number }).responseCode ?? 0;
          const oneAddress = isRefusal(error) && perAddress(error);
          // A 5xx to this address refuses it for good: recorded, and the others go on.
          if (oneAddress && code >= 500) {
            if (!(await updates.done(id, person.id, "failed", reason(error), run.owner))) break sending;
            report.failed++;
            progressed();
            inARow = 0;
            continue;
          }
          // A 4xx to this address (but 421) is "not now": behind the others, failed at the third.
          if (oneAddress && code !== 421) {
            const tries = await updates.requeue(id, person.id, run.owner, 1);
            if (tries === null) break sending;
            if (tries >= MAX_TRIES) {
              if (!(await updates.done(id, person.id, "failed", `${reason(error)}, ${tries} tries`, run.owner))) {
                break sending;
              }
              report.failed++;
            } else {
              deferred.add(person.id);
              report.deferred++;
            }
            if (++inARow < DEFERRED_IN_A_ROW) continue;
            report.stopped = `${reason(error)}: ${inARow} addresses in a row not taken now`;
            break sending;
          }
          // The account or the message refused, 421 or no answer: nothing goes now. Everyone left stays queued.
          if (isRefusal(error)) await updates.requeue(id, person.id, run.owner, 0);
          report.stopped = reason(error);
          break sending;
        }
        if (!(await updates.done(id, person.id, "sent", null, run.owner))) break sending;
        report.sent++;
        progressed();
        inARow = 0;
      }
    }
  } catch (error) {
    // A failure of the database mid-run: the update is let go at once (waiting), so the next run need not wait for
    // this one to be judged dead; what was sent stays recorded. Then the failure goes on to its caller.
    await stopBeating();
    await releaseJob(updates.db, "update", id, run.owner, false).catch(() => {});
    throw error;
  }
  await stopBeating();
  // Only this run records fates while it holds the update, so what is left now is what it leaves. Taken over,
  // paused or cancelled meanwhile: the release changes nothing, and the count is the update's as it stands.
  report.remaining = (await updates.get(id, UPDATE_STALE_SECONDS))?.remaining ?? 0;
  await releaseJob(updates.db, "update", id, run.owner, report.remaining === 0);
  return report;
}
