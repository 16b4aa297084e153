/**
 * The every-minute scheduler's part in long jobs (netlify/functions/jobs-resume.ts): every job whose run died (its
 * lease silent past the staleness rule) or ended without a successor (no owner for over 30 s) is started again in
 * the background. Paused and cancelled jobs are left alone; each kind tidies up first (beforeResume: a cancelled
 * wave's people go back to the line). A start that fails is tried at the next minute.
 */
import { log } from "../log";
import type { Store } from "../store/types";
import type { JobStarter } from "./dispatch";
import { JOB_KINDS, resumableJobs } from "./lease";
import type { JobTable } from "./runner";

export async function resumeJobs(store: Store, start: JobStarter, jobs: JobTable): Promise<number> {
  for (const kind of JOB_KINDS) await jobs[kind].beforeResume?.(store);
  let started = 0;
  for (const job of await resumableJobs(store.db)) {
    if (await start(job.kind, job.id)) started++;
  }
  if (started > 0) log("info", "jobs.resumed", { started });
  return started;
}
