/**
 * A wave as a background job: its held people mailed until the run's deadline. The wave's counts on its row are
 * the console's record (`record`, given by src/server/app/jobs.ts); invitations count themselves.
 */
import { type JobRunner, leaseOf, ownerFor, sliceOf } from "../jobs";
import { log } from "../log";
import type { Store } from "../store/types";
import { withJobMailer } from "../suppression";
import { earlyAccessBase } from "./links";
import { continueWave } from "./wave";
import { releaseCancelledWaves } from "./wave-release";

/** What a run adds to wave `id`'s row: the people refused, and whether the SMTP server stopped it. */
export type WaveRecorder = (store: Store, id: number, counts: { refused: number; stopped: boolean }) => Promise<void>;

export const waveRunner =
  (record: WaveRecorder): JobRunner =>
  (id, run) =>
    withJobMailer(
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
            slice: sliceOf(run),
          },
          id,
        );
        if (!report) return "busy";
        await record(run.store, id, { refused: report.refused, stopped: report.stopped !== null });
        // Cancelled while this run sent: whoever it still held (its e-mail under way at the cancel) goes back to the line.
        if ((await leaseOf(run.store.db, "wave", id))?.cancelled) await run.store.invites.finish(id);
        return report.paused ? "more" : "done";
      },
      "busy",
    );

/** Before the scheduler resumes jobs: people a cancelled wave still holds after its run died go back to the line. */
export async function releaseDeadWaves(store: Store): Promise<void> {
  const released = await releaseCancelledWaves(store);
  if (released > 0) log("info", "jobs.cancelled_wave_released", { released });
}
