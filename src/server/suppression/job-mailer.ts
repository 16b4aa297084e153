/**
 * A background run's mailer: the one given (tests), else SMTP_URL's, pooled and closed when the run ends; either
 * way behind the suppression list (guard.ts), as every e-mail to a person is.
 */
import type { JobRun } from "../jobs";
import { createSmtpMailer, type Mailer } from "../mail/mailer";
import { suppressedMailer } from "./guard";

/** Runs `work` with the run's mailer; `otherwise` when no mail is set up. */
export async function withJobMailer<T>(run: JobRun, work: (mailer: Mailer) => Promise<T>, otherwise: T): Promise<T> {
  const guarded = (mailer: Mailer) => suppressedMailer(mailer, run.config, async () => run.store);
  if (run.mailer) return work(guarded(run.mailer));
  if (!run.config.mail) return otherwise;
  const mailer = createSmtpMailer(run.config.mail, { pool: true });
  try {
    return await work(guarded(mailer));
  } finally {
    mailer.close();
  }
}
