/**
 * Long jobs in the console (src/server/jobs/ runs them): after the operator's confirmation a send, a wave or a
 * delivery of waiting webhook events runs in the background, and the operator is sent to its own page
 * (job-page.tsx). Here: how the console starts one, and Pause, Resume and Cancel (Cancel asks first), each
 * audited, each answered by a redirect to the job's page with a fixed word naming what it did (JOB_NOTICES).
 * What the first page shows of them is attention.tsx's.
 */
import { auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { jobStartKey } from "../../crypto/keys";
import type { RootKey } from "../../crypto/secret";
import { seeOther } from "../../http/responses";
import { releaseCancelledWave } from "../../invitations";
import {
  cancelJob,
  httpJobStarter,
  isOwnerDead,
  type JobKind,
  type JobStarter,
  type Lease,
  leaseOf,
  pauseJob,
  resumeJob,
} from "../../jobs";
import { log } from "../../log";
import type { Store } from "../../store/types";
import { message } from "../pages";
import { cancelPage, jobKey, NO_SUCH_JOB } from "./job-page";
import { jobPath } from "./job-parts";
import { jobProgress } from "./job-progress";

export { Attention, type AttentionProps, loadAttention, needsAttention } from "../overview/attention";
export { jobPage } from "./job-page";
export { jobPath, REFRESH_SECONDS } from "./job-parts";

/** What the console's jobs are given beyond the handler's own: how a job is started (tests run it in-process). */
export interface JobDeps {
  startJob?: (origin: string, root: RootKey) => JobStarter;
}

export interface JobVisit {
  store: Store;
  config: ServerConfig;
  admin: string;
  origin: string;
  fields: Record<string, string>;
  logId: string;
  deps: JobDeps;
}

/** Starts job `id` of `kind` in the background; false when the platform did not take it (the scheduler will). */
export async function startJob(visit: Omit<JobVisit, "fields">, kind: JobKind, id: number): Promise<boolean> {
  const root = jobStartKey(visit.config);
  const starter = (visit.deps.startJob ?? ((origin, key) => httpJobStarter(origin, key)))(visit.origin, root);
  return starter(kind, id);
}

/** POST /admin/jobs: Pause, Resume or Cancel a job (Cancel asks first); each audited. */
export async function jobAction(visit: JobVisit): Promise<Response> {
  const { fields, store, admin } = visit;
  const key = jobKey(fields["kind"] ?? "", fields["id"] ?? "");
  if (!key) return message(400, "Not found", NO_SUCH_JOB, admin);
  const { kind, id } = key;
  const action = fields["action"];
  const back = jobPath(kind, id);
  if (action === "pause") {
    const entry = await auditStart(store.db, admin, "job-pause", { kind, id });
    const by = admin === "token" ? "the admin token" : admin;
    const done = await pauseJob(store.db, kind, id, `Paused by ${by}.`);
    await entry.end({ kind, id, done });
    return seeOther(`${back}&done=${done ? "paused" : "nothing"}`);
  }
  if (action === "resume") {
    const entry = await auditStart(store.db, admin, "job-resume", { kind, id });
    const done = await resumeJob(store.db, kind, id);
    await entry.end({ kind, id, done });
    if (done) await startJob(visit, kind, id);
    return seeOther(`${back}&done=${done ? "resumed" : "nothing"}`);
  }
  if (action === "cancel") {
    if (fields["confirm"] !== "yes") {
      const job = await jobProgress(store.db, kind, id);
      if (!job) return message(404, "Not found", NO_SUCH_JOB, admin);
      return cancelPage(admin, job);
    }
    const entry = await auditStart(store.db, admin, "job-cancel", { kind, id });
    const before = await leaseOf(store.db, kind, id);
    const done = await cancelJob(store.db, kind, id);
    // A wave's people go back to the line now, whatever its run's state: a dead run would never let them go.
    const released = done && kind === "wave" ? await releaseCancelledWave(store, id, runMayBeAlive(before)) : 0;
    await entry.end({ kind, id, done, ...(kind === "wave" ? { released } : {}) });
    log("info", "admin.job_cancelled", { admin: visit.logId, kind, id, done });
    return seeOther(`${back}&done=${done ? "cancelled" : "nothing"}`);
  }
  return message(400, "Not allowed", "Use the page's buttons.", admin);
}

/** Whether a job's run may still be at work: held by an owner not known to be dead (nobody, paused or silent). */
const runMayBeAlive = (lease: Lease | null) =>
  lease !== null && lease.owner !== null && lease.pausedReason === null && !isOwnerDead(lease.owner, lease.stale);

/** What a job's page says after an action (by a fixed word in its address). */
export const JOB_NOTICES: Record<string, string> = {
  started: "Started: it runs by itself from here, and this page follows it.",
  paused: "Paused: the run stops before its next message.",
  resumed: "Resumed: it goes on from where it stopped.",
  cancelled: "Cancelled: the rest stay unsent.",
  nothing: "Nothing was changed: it had already finished, or was not in that state.",
};
