/**
 * The long-job core, for every feature whose work outlasts a request (updates, waves, webhook backlogs; reminders
 * next): one lease (lease.ts: take, beat, release, one staleness rule, pause/resume/cancel with a reason), one slice
 * type (run/slice.ts: a run's share of a job), and one way to start a run in the background that only the product
 * can use (signed.ts, dispatch.ts). A job's own work stays its feature's; what runs which kind is the background
 * folder's (src/server/background/), above the features.
 */
export { BACKGROUND_FUNCTION, BACKGROUND_PATH, httpJobStarter, type JobStarter, jobStartRequest } from "./dispatch";
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
  pauseJob,
  releaseJob,
  resumableJobs,
  resumeJob,
  takeJob,
  takeJobFrom,
  WAITING,
} from "./lease";
export { type JobStart, SIGNATURE_HEADER, SIGNED_START_SECONDS, signJobStart, verifyJobStart } from "./signed";

import type { WaveSlice } from "../run/slice";
/** A run's share of a job: it stops starting new work once `ms` have passed or `people` were dealt with. */
export type JobSlice = WaveSlice;
