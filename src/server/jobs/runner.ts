/**
 * What a background run of a long job is, for the features that run one: each kind's runner lives with its
 * feature (updates/job.ts, invitations/job.ts, webhooks/job.ts, import/job.ts) and is registered in one table,
 * src/server/app/jobs.ts, which the background function and the scheduler are given. A runner works until
 * `deadline`, then says whether the job needs another run ("more": the caller starts one at once), is done or
 * stopped ("done"), or was not its to run ("busy": another live run holds it). The job's row has the last word
 * (settled, below), whatever the kind.
 */
import { randomBytes } from "node:crypto";
import type { ServerConfig } from "../config";
import type { Mailer } from "../mail/mailer";
import type { Store } from "../store/types";
import { type JobKind, type Lease, leaseOf, NO_OWNER } from "./lease";
import { runOwner } from "./owner";
import type { WaveSlice } from "./slice";

export type Outcome = "more" | "done" | "busy" | "cancelled" | "paused";

export interface JobRun {
  store: Store;
  config: ServerConfig;
  /** The site's origin: links in e-mails. */
  origin: string;
  /** Ms since 1970 by which the run must end (a background invocation's time, less room to end well). */
  deadline: number;
  /** The mailer (tests pass one; otherwise SMTP_URL's, pooled for this run). */
  mailer?: Mailer;
  now?: () => number;
}

export type JobRunner = (id: number, run: JobRun) => Promise<Outcome>;

/** A kind of job as its feature registers it: its runner, and what the scheduler does first (tidying up). */
export interface JobWork {
  run: JobRunner;
  beforeResume?: (store: Store) => Promise<void>;
}

/** Every kind's work: a kind without a runner cannot be started. */
export type JobTable = Record<JobKind, JobWork>;

/** A new owner name for one background run of `kind`. */
export const ownerFor = (kind: JobKind) => runOwner(`background-${kind}-${randomBytes(4).toString("hex")}`);

/** The run's time left, at least 1 ms. */
export const msLeft = (run: JobRun) => Math.max(1, run.deadline - (run.now ?? Date.now)());

/** The run's time left as a slice, on the run's clock. */
export const sliceOf = (run: JobRun): WaveSlice => ({ ms: msLeft(run), ...(run.now ? { now: run.now } : {}) });

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
export const settled =
  (kind: JobKind, runner: JobRunner): JobRunner =>
  async (id, run) => {
    const closed = closedOutcome(await leaseOf(run.store.db, kind, id));
    if (closed) return closed;
    const outcome = await runner(id, run);
    const after = await leaseOf(run.store.db, kind, id);
    const closedNow = closedOutcome(after);
    if (closedNow) return closedNow;
    return outcome === "more" && after?.owner !== NO_OWNER ? "busy" : outcome;
  };
