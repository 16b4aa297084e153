/**
 * What a background run does for each kind of long job: one runner per kind, each a slice of its feature's own
 * core (updates/send.ts, invitations/wave.ts, webhooks/deliver.ts) under the one lease (jobs/lease.ts). A new kind
 * (reminders) is a table in JOB_TABLES and a runner here. A runner works until `deadline`, then says whether the
 * job needs another run ("more": the caller starts one at once), is done or stopped ("done"), or was not its to
 * run ("busy": another live run holds it). What the job's row says has the last word (settled): a job cancelled,
 * paused or finished before or during the run ends it with that outcome and no successor, whatever the kind.
 */
import { randomBytes } from "node:crypto";
import type { ServerConfig } from "../config";
import { waveRecords } from "../console/wave-record";
import { rootKey } from "../crypto/keys";
import { importUploaded, sendImportConfirmations } from "../import";
import { continueWave, earlyAccessBase } from "../invitations";
import { beatJob, type JobKind, keepAlive, type Lease, leaseOf, releaseJob, takeJob, WAITING } from "../jobs";
import { log } from "../log";
import { createSmtpMailer, type Mailer } from "../mail/mailer";
import { runOwner } from "../run/owner";
import type { Store } from "../store/types";
import { suppressedMailer } from "../suppression";
import { createUpdateStore, sendUpdate, updatesKey } from "../updates";
import { ATTEMPT_TIMEOUT_MS, deliverNow } from "../webhooks";

export type Outcome = "more" | "done" | "busy" | "cancelled" | "paused";

export interface JobRun {
  store: Store;
  config: ServerConfig;
  /** The site's origin: links in e-mails. */
  origin: string;
  /** Ms since 1970 by which the run lets go (a background invocation's time, less room to end well). */
  deadline: number;
  /** The mailer (tests pass one; otherwise SMTP_URL's, pooled for this run). */
  mailer?: Mailer;
  now?: () => number;
}

export type JobRunner = (id: number, run: JobRun) => Promise<Outcome>;

const ownerFor = (kind: JobKind) => runOwner(`background-${kind}-${randomBytes(4).toString("hex")}`);
const msLeft = (run: JobRun) => Math.max(1, run.deadline - (run.now ?? Date.now)());

/**
 * A mailer for the run: the one given, else SMTP_URL's, pooled, closed when the run ends; either way behind the
 * suppression list (src/server/suppression/), as every e-mail to a person is.
 */
async function withMailer<T>(run: JobRun, work: (mailer: Mailer) => Promise<T>, otherwise: T): Promise<T> {
  const guarded = (mailer: Mailer) => suppressedMailer(mailer, run.config, async () => run.store);
  if (run.mailer) return work(guarded(run.mailer));
  if (!run.config.mail) return otherwise;
  const mailer = createSmtpMailer(run.config.mail, { pool: true });
  try {
    return await work(guarded(mailer));
  } finally {
    mailer.close();
  }
}

/**
 * An update: sent on from where it stands until the deadline. A run the SMTP server stopped lets go with everyone
 * left queued (WAITING): the scheduler starts it again within a minute or two, so a server that is down for a while
 * holds the update up, and nobody is sent it twice.
 */
const runUpdate: JobRunner = (id, run) =>
  withMailer(
    run,
    async (mailer) => {
      const report = await sendUpdate(id, {
        updates: createUpdateStore(run.store.db, run.store.dataKeys),
        mailer,
        root: await updatesKey(run.store),
        site: run.origin,
        owner: ownerFor("update"),
        slice: { ms: msLeft(run), ...(run.now ? { now: run.now } : {}) },
        ratePerSecond: run.config.mailRatePerSecond,
      });
      if (!report) return "busy";
      log("info", "jobs.update_slice", {
        update: id,
        sent: report.sent,
        failed: report.failed,
        left: report.remaining,
      });
      if (report.remaining === 0) return "done";
      return report.stopped === null ? "more" : "done";
    },
    "busy",
  );

/** A wave: its held people mailed until the deadline; its refusals counted on its row (invitations count themselves). */
const runWave: JobRunner = (id, run) =>
  withMailer(
    run,
    async (mailer) => {
      const report = await continueWave(
        {
          store: run.store,
          delivery: { kind: "mail", mailer },
          accessUrl: earlyAccessBase(run.config.earlyAccessUrl),
          siteUrl: run.origin,
          ttlDays: run.config.inviteTtlDays,
          referralPlaces: run.config.referralPlaces,
          owner: ownerFor("wave"),
          slice: { ms: msLeft(run), ...(run.now ? { now: run.now } : {}) },
        },
        id,
      );
      if (!report) return "busy";
      await waveRecords(run.store.db, run.store.dataKeys).record(
        id,
        { invited: 0, refused: report.refused, stopped: report.stopped !== null },
        [],
      );
      // Cancelled while this run sent: whoever it still held (its e-mail under way at the cancel) goes back to the line.
      if ((await leaseOf(run.store.db, "wave", id))?.cancelled) await run.store.invites.finish(id);
      return report.paused ? "more" : "done";
    },
    "busy",
  );

/** How long one delivery pass may take before the drain checks its lease again (its timer beats meanwhile). */
const DRAIN_PASS_MS = 60_000;

/**
 * A webhook backlog ("Deliver everything waiting now" made every waiting event due): delivered until none is due,
 * one event at a time under each event's own lease, so none is acknowledged twice; a 410 ends it (deliveries
 * pause). What is not acknowledged goes back on its retry schedule, and the drain ends.
 */
const runDrain: JobRunner = async (id, run) => {
  const { db } = run.store;
  const owner = ownerFor("webhooks");
  if (!(await takeJob(db, "webhooks", id, owner))) return "busy";
  const stopBeating = keepAlive(db, "webhooks", id, owner);
  try {
    return await drain(id, run, owner);
  } finally {
    await stopBeating();
  }
};

async function drain(id: number, run: JobRun, owner: string): Promise<Outcome> {
  const { db } = run.store;
  if (!run.config.webhook) {
    await releaseJob(db, "webhooks", id, owner, true);
    return "done";
  }
  for (;;) {
    if (!(await beatJob(db, "webhooks", id, owner))) return "busy";
    const left = msLeft(run);
    // Too little time for one whole attempt: the next run goes on (an empty pass would read as "nothing due").
    if (left < ATTEMPT_TIMEOUT_MS + 5_000) break;
    const report = await deliverNow(run.store, run.config, "drain", Math.min(DRAIN_PASS_MS, left));
    if (!report || report.gone || report.delivered + report.retrying + report.failed === 0) {
      await releaseJob(db, "webhooks", id, owner, true);
      return "done";
    }
  }
  await releaseJob(db, "webhooks", id, owner, false);
  return "more";
}

/** The outcome a job's row imposes: cancelled, paused or finished (or gone) ends the run; null: it is open. */
function closedOutcome(lease: Lease | null): Outcome | null {
  if (!lease) return "done";
  if (lease.cancelled) return "cancelled";
  if (lease.pausedReason !== null) return "paused";
  return lease.finished ? "done" : null;
}

/**
 * A runner under the row's last word: a closed job is not run at all, and a run that says "more" of a job closed
 * meanwhile (a cancel or pause mid-send leaves people unsent, which is not "more") or held by another live run
 * ends with what the row says, so no successor is started: one start, one run, one line in the log.
 */
const settled =
  (kind: JobKind, runner: JobRunner): JobRunner =>
  async (id, run) => {
    const closed = closedOutcome(await leaseOf(run.store.db, kind, id));
    if (closed) return closed;
    const outcome = await runner(id, run);
    const after = await leaseOf(run.store.db, kind, id);
    const closedNow = closedOutcome(after);
    if (closedNow) return closedNow;
    return outcome === "more" && after?.owner !== WAITING ? "busy" : outcome;
  };

/**
 * An import: a console upload's lines read and recorded first (import/upload.ts), under the lease, then its
 * confirmation e-mails (import/mail.ts), sent on until the deadline at the mail rate.
 */
const runImport: JobRunner = async (id, run) => {
  const read = await readUpload(id, run);
  if (read !== "read") return read;
  return withMailer(
    run,
    async (mailer) => {
      const report = await sendImportConfirmations(id, {
        store: run.store,
        mailer,
        root: await rootKey(run.config, run.store),
        site: run.origin,
        owner: ownerFor("import"),
        ratePerSecond: run.config.mailRatePerSecond,
        slice: { ms: msLeft(run), ...(run.now ? { now: run.now } : {}) },
      });
      if (!report) return "busy";
      log("info", "jobs.import_slice", { import: id, sent: report.sent, left: report.remaining });
      return report.remaining === 0 ? "done" : "more";
    },
    "busy",
  );
};

/** Import `id`'s lines, read from its upload if not yet: "read" once they are, else the run's outcome. */
async function readUpload(id: number, run: JobRun): Promise<Outcome | "read"> {
  const { db } = run.store;
  const owner = ownerFor("import");
  if (!(await takeJob(db, "import", id, owner))) return "busy";
  const stopBeating = keepAlive(db, "import", id, owner);
  let read: "read" | "gone" | null = null;
  try {
    read = await importUploaded(run.store, id);
    if (read === "gone") log("warn", "jobs.import_upload_gone", { import: id });
    return read === "read" ? "read" : "done";
  } finally {
    await stopBeating();
    // Reading the lines hands the lease on (WAITING for the e-mails, or finished); a failed read lets it go for the
    // next run; an upload that is gone can never be read, so that import is over.
    await releaseJob(db, "import", id, owner, read === "gone");
  }
}

/** Every kind's runner: a kind without one cannot be started. */
export const RUNNERS: Record<JobKind, JobRunner> = {
  update: settled("update", runUpdate),
  wave: settled("wave", runWave),
  webhooks: settled("webhooks", runDrain),
  import: settled("import", runImport),
};
