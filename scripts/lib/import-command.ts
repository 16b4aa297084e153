/**
 * What `npm run waitlist -- import FILE` does and prints, given the store the command opened: the format it took,
 * the dry run's counts (or the import's), the first refused rows and where all of them are (`FILE.refused.csv`),
 * then, asking consent, the confirmation e-mails (import/mail.ts) in the foreground when SMTP_URL is set here.
 */
import { createReadStream, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import type { Store } from "../../src/server/app/store";
import { ACTOR } from "../../src/server/audit";
import { getConfig } from "../../src/server/config";
import { rootKey } from "../../src/server/crypto/keys";
import { csvRow, visibleControls } from "../../src/server/csv";
import {
  type ConsentMode,
  ImportRefused,
  type ImportReport,
  importFile,
  type Refusal,
  sendImportConfirmations,
  UnreadableFile,
} from "../../src/server/import";
import { runOwner } from "../../src/server/jobs";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { suppressedMailer } from "../../src/server/suppression";
import { SITE } from "../../src/site";
import { progressBar } from "./progress";
import { plural } from "./waitlist-commands";

export interface ImportCommand {
  store: Store;
  source: string;
  file: string;
  consent: ConsentMode;
  /** --source NAME; null: each row's own, else "import". */
  rowSource: string | null;
  yes: boolean;
  fail: (message: string) => never;
  counts?: Record<string, unknown>;
}

/** The refused rows' file beside the imported one: file, line, reason, then the row as it was. */
function refusedFile(path: string) {
  const target = `${path}.refused.csv`;
  const partial = `${target}.partial`;
  const rows: string[] = [csvRow(["file", "line", "reason", "row as read"])];
  return {
    target,
    add: (refusal: Refusal, cells: readonly string[]) =>
      rows.push(csvRow([refusal.file, refusal.line, refusal.reason, ...cells])),
    /** Written whole once the file is read (a rerun writes it again), or removed when nothing was refused. */
    finish(refused: number) {
      if (refused === 0) return rmSync(target, { force: true });
      writeFileSync(partial, rows.join(""));
      renameSync(partial, target);
    },
  };
}

const counted = (report: ImportReport) =>
  [
    `${plural(report.added, "new person", "new people")}`,
    `${plural(report.existing, "already on the list (left as they are)", "already on the list (left as they are)")}`,
    `${report.suppressed.toLocaleString("en")} to the suppression list (unsubscribed or bounced)`,
    `${report.refused.toLocaleString("en")} refused`,
  ].join(", ");

function printReport(report: ImportReport, refusedPath: string) {
  for (const { file, format, reads } of report.formats) {
    console.log(`Read ${visibleControls(basename(file))} as ${format} (columns used: ${reads.join(", ")}).`);
  }
  for (const { file, line, reason } of report.firstReasons) {
    console.log(`  refused: ${visibleControls(basename(file))} line ${line}: ${visibleControls(reason)}`);
  }
  if (report.refused > report.firstReasons.length) {
    console.log(`  … and ${report.refused - report.firstReasons.length} more refused rows.`);
  }
  if (report.refused > 0) console.log(`Every refused row, with its line and reason: ${refusedPath}`);
}

export async function importCommand(command: ImportCommand): Promise<number> {
  const { store, source, file, consent, rowSource, yes, fail, counts } = command;
  const refused = refusedFile(file);
  let report: ImportReport;
  try {
    report = await importFile({
      store,
      file: { name: basename(file), open: () => createReadStream(file) },
      consent,
      source: rowSource,
      apply: yes,
      actor: ACTOR.cli,
      onRefused: refused.add,
    });
  } catch (error) {
    if (error instanceof UnreadableFile || error instanceof ImportRefused) {
      return fail(`${error.message.replace(/ Nothing was changed\.$/, "")} Nothing was changed.`);
    }
    throw error;
  }
  if (report.alreadyDone) {
    console.log(`This file was imported already, in ${source}: ${counted(report)}. Nothing was added again.`);
  } else {
    refused.finish(report.refused);
    printReport(report, refused.target);
  }
  Object.assign(counts ?? {}, { added: report.added, existing: report.existing, refused: report.refused });
  if (!yes) {
    const asked = consent === "ask" ? " Each new person will be pending and asked to confirm by e-mail." : "";
    console.log(`Dry run, in ${source}: ${counted(report)}.${asked} Run again with --yes to import.`);
    return 0;
  }
  if (!report.alreadyDone) console.log(`Imported into ${source}: ${counted(report)}.`);
  if (consent === "confirmed" || report.unmailed === 0) return 0;
  return askToConfirm(store, report, fail);
}

/** The confirmation e-mails owed, sent here when SMTP_URL is set; else left to the site's scheduled jobs. */
async function askToConfirm(store: Store, report: ImportReport, fail: (message: string) => never): Promise<number> {
  const config = getConfig();
  const owed = plural(report.unmailed, "confirmation e-mail");
  if (!config.mail) {
    console.log(
      `${owed} owed: the site's scheduled jobs send them at the mail rate (SMTP_URL is not set for this command), or run this command again with SMTP_URL and MAIL_FROM set.`,
    );
    return 0;
  }
  const mailer = suppressedMailer(createSmtpMailer(config.mail, { pool: true }), config, async () => store);
  const bar = progressBar("Asking to confirm");
  const sent = await sendImportConfirmations(report.importId as number, {
    store,
    mailer,
    root: await rootKey(config, store),
    site: config.siteUrl ?? SITE.url,
    owner: runOwner("cli"),
    ratePerSecond: config.mailRatePerSecond,
    onProgress: (done) => bar.update(done, report.unmailed),
  }).finally(() => {
    bar.stop();
    mailer.close();
  });
  if (!sent) return fail("another run is sending this import's e-mails right now; nothing was sent by this one.");
  console.log(`Asked ${plural(sent.sent, "person", "people")} to confirm by e-mail.`);
  if (sent.remaining > 0) {
    console.log(`${plural(sent.remaining, "e-mail is", "e-mails are")} still owed: run the same command again.`);
    return 1;
  }
  return 0;
}
