/**
 * A webhook backlog as a background job ("Deliver everything waiting now" made every waiting event due): delivered
 * until none is due, one event at a time under each event's own lease, so none is acknowledged twice; a 410 ends
 * it (deliveries pause). What is not acknowledged goes back on its retry schedule, and the drain ends.
 */
import {
  beatJob,
  type JobRun,
  type JobRunner,
  keepAlive,
  msLeft,
  type Outcome,
  ownerFor,
  releaseJob,
  takeJob,
} from "../jobs";
import { ATTEMPT_TIMEOUT_MS } from "./deliver";
import { deliverNow } from "./index";

/** How long one delivery pass may take before the drain checks its lease again (its timer beats meanwhile). */
const DRAIN_PASS_MS = 60_000;

export const runDrain: JobRunner = async (id, run) => {
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
