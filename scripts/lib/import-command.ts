/**
 * What `npm run waitlist -- import FILE` does and prints, given the store the command opened: the format it took,
 * the dry run's counts (or the import's), the first refused rows and where all of them are (`FILE.refused.csv`),
 * then, asking consent, the confirmation e-mails (import/mail.ts) in the foreground when SMTP_URL is set here.
 */
import { closeSync, createReadStream, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename } from "node:path";
import { setFlagsFromString } from "node:v8";
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

/**
 * The refused rows' file beside the imported one: file, line, reason, then the row as it was. Streamed to a
 * partial file as rows are refused (never held), then put in place once the file is read (a rerun writes it
 * again), or removed when nothing was refused.
 */
function refusedFile(path: string) {
  const target = `${path}.refused.csv`;
  const partial = `${target}.partial`;
  let fd: number | null = null;
  let started = false;
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length === 0) return;
    fd ??= openSync(partial, "w");
    writeSync(fd, pending.join(""));
    [pending, size] = [[], 0];
  };
  const write = (line: string) => {
    pending.push(line);
    size += line.length;
    // Written in pieces of about 64 KB: few writes, little held.
    if (size >= 65_536) flush();
  };
  const close = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
  };
  return {
    target,
    add(refusal: Refusal, cells: readonly string[]) {
      if (!started) write(csvRow(["file", "line", "reason", "row as read"]));
      started = true;
      write(csvRow([refusal.file, refusal.line, refusal.reason, ...cells]));
    },
    finish(refused: number) {
      if (refused > 0 && !started) write(csvRow(["file", "line", "reason", "row as read"]));
      flush();
      close();
      if (refused === 0) {
        rmSync(partial, { force: true });
        return rmSync(target, { force: true });
      }
      renameSync(partial, target);
    },
    /** The import failed: the partial file goes, the last whole one stays. */
    abandon() {
      close();
      rmSync(partial, { force: true });
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

/**
 * The CLI's heap kept near its size at the start, for memory that does not follow the file's length. Every row
 * passes through short-lived objects, and a batch of them lives while the one before is written: V8 then doubles
 * its young generation whenever as much has survived as it holds (up to 64 MB), and lets the old one grow to
 * several times what is live between full collections, so the peak grew with the time an import took: +70 MB from
 * 20,000 rows to 100,000, none of it live (+30 MB with the old generation held alone; +7 MB with both). Neither
 * growth bought time: 5.1 CPU seconds for 100,000 rows either way (docs/performance.md, "Import"). As
 * scripts/serve.ts does for a download; set in the process, as NODE_OPTIONS takes neither flag.
 */
export function keepHeapSteady() {
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--heap-growing-percent=20");
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
    refused.abandon();
    if (error instanceof UnreadableFile || error instanceof ImportRefused) {
      return fail(`${error.message.replace(/ Nothing was changed\.$/, "")} Nothing was changed.`);
    }
    throw error;
  }
  if (report.alreadyDone) {
    refused.abandon();
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
