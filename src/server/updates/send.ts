/**
 * Sending an update, one core for the console and the CLI: every recipient at most once, nobody skipped, a refusal
 * of one address recorded and the others sent, a run that no longer holds the update stopped at once, paced at
 * MAIL_RATE_PER_SECOND. Each guarantee and why: docs/design/update-sending.md.
 */

import type { DatabaseKey } from "../crypto/keys";
import {
  type Budget,
  budgetOf,
  JOB_STALE_SECONDS,
  type JobSlice,
  keepAlive,
  releaseJob,
  spent,
  takeJob,
} from "../jobs";
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
  /** How much one run may do before it stops and releases the job (a background invocation's time); none: to the end (the CLI). */
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

/** After one recipient: go on with the next, or stop the run (the update taken over, or the server stopped it). */
type Step = "next" | "stop";
type Recipient = Awaited<ReturnType<UpdateStore["next"]>>[number];

/** One run's sending of one update: what it sends, and what it has counted so far. */
interface Sending {
  id: number;
  run: UpdateRun;
  draft: { subject: string; body: string };
  report: UpdateReport;
  /** Recipients left when the run began: the total its progress is told against. */
  total: number;
  budget: Budget | null;
  /** Those this run was told "not now" for: tried again by the next run, not this one. */
  deferred: Set<number>;
  /** Addresses told "not now" one after another. */
  inARow: number;
  dealt: number;
  /** Waits until the next message may go (MAIL_RATE_PER_SECOND). */
  pace: () => Promise<void>;
}

/**
 * Sends update `id` on from where it stands, within the run's slice; then completes it or, with people left,
 * pauses it for the next run. Null when another live run is sending it (nothing is sent).
 */
export async function sendUpdate(id: number, run: UpdateRun): Promise<UpdateReport | null> {
  const { updates } = run;
  const row = await updates.get(id, UPDATE_STALE_SECONDS);
  if (!row) return null;
  const report: UpdateReport = { sent: 0, failed: 0, skipped: 0, deferred: 0, stopped: null, remaining: row.remaining };
  if (row.finished) return report;
  if (!(await takeJob(updates.db, "update", id, run.owner))) return null;
  const sending = startSending(id, run, row, report);
  // Beats while a step waits (an SMTP answer, the pacing), so a slow server never makes a live run look dead.
  const stopBeating = keepAlive(updates.db, "update", id, run.owner);
  try {
    await sendAll(sending);
  } catch (error) {
    // A database failure mid-run: the update is released at once, so the next run need not wait for this one to
    // be judged dead; what was sent stays recorded. Then the failure goes on to its caller.
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

function startSending(
  id: number,
  run: UpdateRun,
  row: { subject: string; body: string; remaining: number },
  report: UpdateReport,
): Sending {
  const now = run.now ?? Date.now;
  const sleep = run.sleep ?? wait;
  const interval = run.ratePerSecond > 0 ? 1000 / run.ratePerSecond : 0;
  let nextAt = now();
  const pace = async () => {
    if (interval === 0) return;
    const due = nextAt - now();
    if (due > 0) await sleep(due);
    nextAt = Math.max(nextAt, now()) + interval;
  };
  const draft = { subject: row.subject, body: row.body };
  const budget = budgetOf(run.slice);
  return { id, run, draft, report, total: row.remaining, budget, deferred: new Set(), inARow: 0, dealt: 0, pace };
}

/** Batch after batch of recipients, until none is left, the slice is spent or a step says stop. */
async function sendAll(s: Sending): Promise<void> {
  for (;;) {
    const batch = await s.run.updates.next(s.id, BATCH, [...s.deferred]);
    if (batch.length === 0) return;
    for (const person of batch) {
      if (spent(s.budget)) return;
      if (s.budget) s.budget.dealt++;
      if ((await dealWith(s, person)) === "stop") return;
    }
  }
}

/** One recipient: counted sent if an earlier run's message was on its way, skipped if they left, else mailed. */
async function dealWith(s: Sending, person: Recipient): Promise<Step> {
  if (person.inDoubt) return record(s, person, "sent", IN_DOUBT);
  if (!person.still) return record(s, person, "skipped", null, "skipped");
  await s.pace();
  return mail(s, person);
}

/**
 * Records `person`'s fate and counts it. Each record is the run's own while it holds the update; one refused
 * means another run took it over: this one stops, or it would meet the same people again and again.
 */
async function record(
  s: Sending,
  person: Recipient,
  fate: "sent" | "skipped" | "failed",
  why: string | null,
  count?: "sent" | "skipped" | "failed",
): Promise<Step> {
  if (!(await s.run.updates.done(s.id, person.id, fate, why, s.run.owner))) return "stop";
  if (count) s.report[count]++;
  s.run.onProgress?.(++s.dealt, s.total);
  return "next";
}

async function mail(s: Sending, person: Recipient): Promise<Step> {
  const { run, id } = s;
  const { root, site } = run;
  const words = updateEmail(s.draft, {
    unsubscribe: unsubscribeLink(site, unsubscribeToken(root, id, person.id)),
    status: statusPageLink(root, site, person.id),
    site,
    messageId: messageId(root, site, id, person.id),
  });
  try {
    // Named as this update's, so what comes back for it counts against it (src/server/suppression/).
    await run.mailer.send(
      person.email,
      { ...words, update: id },
      {
        beforeCommit: async () => {
          if (!(await run.updates.attempted(id, person.id, run.owner))) throw new NoLongerHeld("stopped updates");
        },
      },
    );
  } catch (error) {
    return refused(s, person, error);
  }
  s.inARow = 0;
  return record(s, person, "sent", null, "sent");
}

/** A message that did not go: why decides whether this address, or the whole run, stops. */
async function refused(s: Sending, person: Recipient, error: unknown): Promise<Step> {
  if (error instanceof NoLongerHeld) return record(s, person, "skipped", null, "skipped");
  const code = (error as { responseCode?: number }).responseCode ?? 0;
  const oneAddress = isRefusal(error) && perAddress(error);
  // A 5xx to this address refuses it for good: recorded, and the others go on.
  if (oneAddress && code >= 500) {
    s.inARow = 0;
    return record(s, person, "failed", reason(error), "failed");
  }
  // A 4xx to this address (but 421) is "not now": behind the others, failed at the third.
  if (oneAddress && code !== 421) return notNow(s, person, error);
  // The account or the message refused, 421 or no answer: nothing goes now. Everyone left stays queued.
  if (isRefusal(error)) await s.run.updates.requeue(s.id, person.id, s.run.owner, 0);
  s.report.stopped = reason(error);
  return "stop";
}

/** "Not now" for one address: queued behind the others (failed at MAX_TRIES); too many in a row stops the run. */
async function notNow(s: Sending, person: Recipient, error: unknown): Promise<Step> {
  const tries = await s.run.updates.requeue(s.id, person.id, s.run.owner, 1);
  if (tries === null) return "stop";
  if (tries >= MAX_TRIES) {
    if (!(await s.run.updates.done(s.id, person.id, "failed", `${reason(error)}, ${tries} tries`, s.run.owner))) {
      return "stop";
    }
    s.report.failed++;
  } else {
    s.deferred.add(person.id);
    s.report.deferred++;
  }
  if (++s.inARow < DEFERRED_IN_A_ROW) return "next";
  s.report.stopped = `${reason(error)}: ${s.inARow} addresses in a row not taken now`;
  return "stop";
}
