/**
 * Every kind of long job and the feature that runs it: the table the background function and the scheduler are
 * given (src/server/jobs/ is the machine; each runner is its feature's job.ts). A new kind is a table in
 * JOB_TABLES (jobs/lease.ts) and a line here.
 */

import { runImport } from "../import/job";
import { releaseDeadWaves, type WaveRecorder, waveRunner } from "../invitations/job";
import { waveRecords } from "../invitations/wave-record";
import type { JobTable } from "../jobs";
import { runUpdate } from "../updates/job";
import { runDrain } from "../webhooks/job";

/** A background run's counts on its wave's row (invitations count themselves: none invited here). */
const recordWave: WaveRecorder = (store, id, counts) => store.of(waveRecords).record(id, { invited: 0, ...counts }, []);

export const JOBS: JobTable = {
  update: { run: runUpdate },
  wave: { run: waveRunner(recordWave), beforeResume: releaseDeadWaves },
  webhooks: { run: runDrain },
  import: { run: runImport },
};
