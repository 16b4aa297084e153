/**
 * An import as a background job: a console upload's lines read and recorded first (upload.ts), under the lease,
 * then its confirmation e-mails (mail.ts), sent on until the run's deadline at the mail rate.
 */
import { rootKey } from "../crypto/keys";
import { type JobRun, type JobRunner, keepAlive, type Outcome, ownerFor, releaseJob, sliceOf, takeJob } from "../jobs";
import { log } from "../log";
import { withJobMailer } from "../suppression";
import { sendImportConfirmations } from "./mail";
import { importUploaded } from "./upload";

export const runImport: JobRunner = async (id, run) => {
  const read = await readUpload(id, run);
  if (read !== "read") return read;
  return withJobMailer(
    run,
    async (mailer) => {
      const report = await sendImportConfirmations(id, {
        store: run.store,
        mailer,
        root: await rootKey(run.config, run.store),
        site: run.origin,
        owner: ownerFor("import"),
        ratePerSecond: run.config.mailRatePerSecond,
        slice: sliceOf(run),
      });
      if (!report) return "busy";
      log("info", "jobs.import_slice", { import: id, sent: report.sent, left: report.remaining });
      return report.remaining === 0 ? "done" : "more";
    },
    "busy",
  );
};

/** Import `id`'s lines, read from its upload if not yet: "read" once they are, else the run's outcome. */
async function readUpload(id: number, run: JobRun): Promise<Outcome | "read"> {
  const { db } = run.store;
  const owner = ownerFor("import");
  if (!(await takeJob(db, "import", id, owner))) return "busy";
  const stopBeating = keepAlive(db, "import", id, owner);
  let read: "read" | "gone" | null = null;
  try {
    read = await importUploaded(run.store, id);
    if (read === "gone") log("warn", "jobs.import_upload_gone", { import: id });
    return read === "read" ? "read" : "done";
  } finally {
    await stopBeating();
    // Reading the lines hands the job on (no owner, for the e-mails; or finished); a failed read leaves it for the
    // next run; an upload that is gone can never be read, so that import is over.
    await releaseJob(db, "import", id, owner, read === "gone");
  }
}
