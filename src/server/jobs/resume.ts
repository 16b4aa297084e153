/**
 * The every-minute scheduler's part in long jobs (netlify/functions/jobs-resume.ts): every job whose run died (its
 * lease silent past the staleness rule) or ended without a successor (waiting over 30 s) is started again in
 * the background. Paused and cancelled jobs are left alone, but for the people a cancelled wave still holds, whose
 * e-mail was in flight when it was cancelled and whose run then died: they go back to the line. A start that fails
 * is tried at the next minute.
 */
import { releaseCancelledWaves } from "../invitations";
import type { JobStarter } from "../jobs";
import { resumableJobs } from "../jobs";
import { log } from "../log";
import type { Store } from "../store/types";

export async function resumeJobs(store: Store, start: JobStarter): Promise<number> {
  const released = await releaseCancelledWaves(store);
  if (released > 0) log("info", "jobs.cancelled_wave_released", { released });
  let started = 0;
  for (const job of await resumableJobs(store.db)) {
    if (await start(job.kind, job.id)) started++;
  }
  if (started > 0) log("info", "jobs.resumed", { started });
  return started;
}
