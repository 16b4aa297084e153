/**
 * Asking imported people to confirm: each added row of an import made with --consent ask is owed one confirmation
 * e-mail (the sign-up's own, mail/send.ts), sent at MAIL_RATE_PER_SECOND as a long job under the one lease
 * (jobs/lease.ts, kind "import"): from the CLI in the foreground, or in the background (import/job.ts),
 * whichever takes it. Each row is claimed before its e-mail goes (a run killed after the claim has sent at most
 * one), so nobody is mailed twice; a suppressed address is never mailed (the guarded mailer refuses it).
 */

import type { RootKey } from "../crypto/secret";
import { personOf, type StoredPerson } from "../data-key";
import { beatJob, budgetOf, type JobSlice, keepAlive, releaseJob, spent, takeJob } from "../jobs";
import { countedMailboxKey } from "../mail/mailbox";
import type { Mailer } from "../mail/mailer";
import { sendConfirmation } from "../mail/send";
import type { Store } from "../store/types";
import { IMPORT_SQL } from "./sql";

const BATCH = 50;

export interface ImportMailRun {
  store: Store;
  /** The guarded mailer (suppression/). */
  mailer: Mailer;
  /** The server's root key: the mailbox's daily count (as every confirmation's). */
  root: RootKey;
  /** The site's origin, for the links. */
  site: string;
  owner: string;
  ratePerSecond: number;
  slice?: JobSlice;
  onProgress?: (done: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

export interface ImportMailReport {
  /** Confirmation e-mails handed to the mailer by this run. */
  sent: number;
  /** Rows whose person is no longer pending (confirmed meanwhile, or gone): nothing to ask. */
  skipped: number;
  /** Still owed when the run stopped. */
  remaining: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Owed = StoredPerson & { part: number; line: number; status: string | null };

/** Sends import `id`'s owed e-mails within the run's slice; null when another run holds the job (nothing sent). */
export async function sendImportConfirmations(id: number, run: ImportMailRun): Promise<ImportMailReport | null> {
  const { store } = run;
  if (!(await takeJob(store.db, "import", id, run.owner))) return null;
  const report: ImportMailReport = { sent: 0, skipped: 0, remaining: 0 };
  const interval = run.ratePerSecond > 0 ? 1000 / run.ratePerSecond : 0;
  const budget = budgetOf(run.slice);
  let nextAt = Date.now();
  // The lease lives a minute (jobs/lease.ts); a slow mail rate or server must not let another run take it mid-send.
  const stopBeating = keepAlive(store.db, "import", id, run.owner);
  try {
    sending: for (;;) {
      if (!(await beatJob(store.db, "import", id, run.owner))) break;
      const batch = await store.db.query<Owed>(IMPORT_SQL.unmailed, [id, BATCH]);
      if (batch.length === 0) break;
      for (const row of batch) {
        if (spent(budget)) break sending;
        if (budget) budget.dealt++;
        if ((await store.db.query(IMPORT_SQL.claim, [id, row.part, row.line])).length === 0) continue;
        if (row.status !== "pending") {
          report.skipped++;
          continue;
        }
        if (interval > 0) {
          const due = nextAt - Date.now();
          if (due > 0) await (run.sleep ?? wait)(due);
          nextAt = Math.max(nextAt, Date.now()) + interval;
        }
        const { email } = personOf(store.dataKeys, row);
        await sendConfirmation(store.consent, run.mailer, {
          email,
          site: run.site,
          mailboxKey: countedMailboxKey(run.root, email),
        });
        report.sent++;
        run.onProgress?.(report.sent + report.skipped);
      }
    }
  } catch (error) {
    await stopBeating();
    await releaseJob(store.db, "import", id, run.owner, false).catch(() => {});
    throw error;
  }
  await stopBeating();
  const [counts] = await store.db.query<{ unmailed: number }>(IMPORT_SQL.counts, [id]);
  report.remaining = Number(counts?.unmailed ?? 0);
  await releaseJob(store.db, "import", id, run.owner, report.remaining === 0);
  return report;
}
