/**
 * An update as a background job: sent on from where it stands until the run's deadline. A run the SMTP server
 * stopped ends with everyone left queued (no owner): the scheduler starts it again within a minute or two, so a
 * server that is down for a while holds the update up, and nobody is sent it twice.
 */
import { type JobRunner, ownerFor, sliceOf } from "../jobs";
import { log } from "../log";
import { withJobMailer } from "../suppression";
import { updatesKey } from "./message";
import { sendUpdate } from "./send";
import { createUpdateStore } from "./store";

export const runUpdate: JobRunner = (id, run) =>
  withJobMailer(
    run,
    async (mailer) => {
      const report = await sendUpdate(id, {
        updates: run.store.of(createUpdateStore),
        mailer,
        root: await updatesKey(run.store),
        site: run.origin,
        owner: ownerFor("update"),
        slice: sliceOf(run),
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
