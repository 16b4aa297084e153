/**
 * Long jobs: work that outlasts a request (an update to the list, a wave of invitations, a webhook backlog, an
 * import). The life of a job:
 * 1. Its feature writes the job's row (its kind's table in JOB_TABLES) with no owner (NO_OWNER), and asks for a
 *    start: a signed POST to the background function (dispatch.ts, signed.ts), which Netlify answers 202 at once.
 * 2. The background function (handler.ts) checks the signature and runs the kind's runner (runner.ts; each
 *    feature's own job.ts, registered in src/server/app/jobs.ts) for 13 of its 15 minutes.
 * 3. The runner takes the lease (lease.ts), beats it at every step and on a timer, and works in a slice (slice.ts)
 *    until its time is up; then it releases the job (finished, or no owner) and the handler starts a successor.
 * 4. A pause or a cancellation is written on the row; the run sees it at its next beat and stops.
 * 5. Every minute the scheduler (resume.ts) starts again any job whose run died (stale heartbeat, owner.ts) or
 *    whose successor never came: so no run's end, crash or lost start loses work.
 */
export { BACKGROUND_FUNCTION, BACKGROUND_PATH, httpJobStarter, type JobStarter, jobStartRequest } from "./dispatch";
export { type BackgroundDeps, createBackgroundHandler, RUN_MS } from "./handler";
export {
  beatJob,
  cancelJob,
  isJobKind,
  JOB_BEAT_MS,
  JOB_KINDS,
  JOB_STALE_SECONDS,
  JOB_TABLES,
  type JobKind,
  keepAlive,
  type Lease,
  leaseOf,
  NO_OWNER,
  pauseJob,
  releaseJob,
  resumableJobs,
  resumeJob,
  takeJob,
  takeJobFrom,
} from "./lease";
export { isOwnerDead, runOwner } from "./owner";
export { resumeJobs } from "./resume";
export {
  type JobRun,
  type JobRunner,
  type JobTable,
  type JobWork,
  msLeft,
  type Outcome,
  ownerFor,
  sliceOf,
} from "./runner";
export { type JobStart, SIGNATURE_HEADER, SIGNED_START_SECONDS, signJobStart, verifyJobStart } from "./signed";
export { type Budget, budgetOf, type JobSlice, spent, type WaveSlice } from "./slice";
