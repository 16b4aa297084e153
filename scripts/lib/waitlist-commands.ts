/**
 * What `npm run waitlist -- count | export | invite | encrypt | purge-pending` do and print, given the store the
 * command opened (scripts/waitlist.ts parses the arguments and opens it). `update` is update-command.ts, `reminders`
 * reminders-command.ts, `webhooks` webhooks-command.ts.
 */

import { once } from "node:events";
import type { Store } from "../../src/server/app/store";
import { ACTOR, audit } from "../../src/server/audit";
import { getConfig, type ServerConfig } from "../../src/server/config";
import { createFunnelStore, type FunnelRow, percent } from "../../src/server/console/overview/funnel-store";
import { withVisitors } from "../../src/server/console/overview/funnel-visits";
import { visibleControls } from "../../src/server/csv";
import { ENTRY_STATUSES } from "../../src/server/entry";
import { type ExportFormat, exportParts, openBatches } from "../../src/server/export/rows";
import { suppressedLeftOut } from "../../src/server/export/store";
import { previewWave, runWave, type WaveReport } from "../../src/server/invitations/wave";
import { createSmtpMailer, type Mailer } from "../../src/server/mail/mailer";
import { suppressedMailer } from "../../src/server/suppression";
import { createVisitStore } from "../../src/server/visits";
import { SITE } from "../../src/site";
import { progressBar } from "./progress";

interface InviteRun {
  store: Store;
  /** Where the list is, as the command's lines name it. */
  source: string;
  next: number;
  /** --yes: run the wave; without it, a dry run. */
  yes: boolean;
  /** The product's sign-up page the invite links lead to. */
  base: URL;
  /** Filled with what the wave did, for the audit log's completion entry. */
  counts?: Record<string, unknown>;
  /** Called once it is sure to act, before the first effect: the audit log's "started" entry. */
  starting?: () => Promise<void>;
  /** These people (everyone a filter matched: segment-commands.ts, which did the dry run), not the next in line. */
  people?: number[];
}

export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
/** How a wave reaches people, in the dry run's words. */
export const inviteHow = () => (getConfig().mail ? "by e-mail" : "as CSV on standard output (mail is off)");
const day = (iso: string | null) => iso?.slice(0, 10) ?? "";

/** `invite`: a dry run says what a wave would do; with --yes it runs one (src/server/invitations/wave.ts). */
export async function invite(run: InviteRun): Promise<number> {
  const places = getConfig().referralPlaces;
  if (!run.yes && !run.people) return inviteDryRun(run, places);
  await run.starting?.();
  const mail = getConfig().mail;
  const mailer = mail
    ? suppressedMailer(createSmtpMailer(mail, { pool: true }), getConfig(), async () => run.store)
    : null;
  const report = await sendWave(run, places, mailer);
  mailer?.close();
  Object.assign(run.counts ?? {}, { invited: report.invited, refused: report.refused, resumed: report.resumed });
  return waveReported(report, run.source, mailer !== null);
}

/** What the next wave would do: whom, from which days, in what order, and any unfinished wave it completes first. */
async function inviteDryRun({ store, source, next }: InviteRun, places: number): Promise<number> {
  const preview = await previewWave(store, next, places);
  const who =
    preview.count === 0
      ? `Dry run: nobody to invite: no confirmed sign-up is waiting in ${source}.`
      : `Dry run: would invite ${preview.count} of ${plural(preview.available, "confirmed sign-up")} waiting in ${source}, who signed up from ${day(preview.first)} to ${day(preview.last)} (UTC), ${inviteHow()}.`;
  console.log(who);
  if (preview.count > 0) {
    console.log(
      places > 0
        ? `In line order (REFERRAL_PLACES=${places}): ${preview.movedUp === 0 ? "nobody" : plural(preview.movedUp, "person", "people")} of them moved up by referrals.`
        : "In sign-up order (REFERRAL_PLACES=0: referrals move nobody).",
    );
  }
  if (preview.interrupted > 0) {
    console.log(
      `An unfinished wave still holds ${plural(preview.interrupted, "person", "people")}: if its process has stopped, --yes completes it first and invites nobody else in that run.`,
    );
  }
  if (preview.count > 0) console.log("Run again with --yes to invite them.");
  return 0;
}

/** The wave run, by e-mail, or (mail off) as CSV on standard output, its header first; a progress bar meanwhile. */
async function sendWave({ store, next, base, people }: InviteRun, places: number, mailer: Mailer | null) {
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
  if (!mailer) await write("email,name,invite_url\r\n");
  const bar = progressBar("Inviting");
  return runWave({
    store,
    next,
    delivery: mailer ? { kind: "mail", mailer } : { kind: "csv", write },
    accessUrl: base,
    siteUrl: getConfig().siteUrl ?? SITE.url,
    ttlDays: getConfig().inviteTtlDays,
    referralPlaces: places,
    ...(people ? { people } : {}),
    onProgress: (done, total) => bar.update(done, total),
  }).finally(() => bar.stop());
}

/** What the wave did, and the exit code: 1 when a server refused someone or could not be used. */
function waveReported(report: WaveReport, source: string, byMail: boolean): number {
  // With mail off, standard output is the CSV: the summary goes to standard error.
  const say = byMail ? console.log : console.error;
  const done = `${plural(report.invited, "person", "people")} invited ${byMail ? "(e-mails accepted by the SMTP server)" : "(their rows are above)"}`;
  if (report.resumed) {
    say(`Completed an interrupted wave in ${source}: ${done}. Run again for a new wave.`);
  } else if (report.invited + report.refused === 0 && !report.stopped) {
    say(`Nobody to invite: no confirmed sign-up is waiting in ${source}.`);
  } else {
    say(`Wave in ${source}: ${done}.`);
  }
  if (report.refused > 0) {
    say(
      `${plural(report.refused, "e-mail")} refused by the SMTP server: ${report.refused === 1 ? "that person stays" : "those people stay"} confirmed, and a later wave tries again.`,
    );
  }
  if (report.stopped) {
    say(
      `Stopped early: the SMTP server could not be used (${report.stopped}). Whoever was not reached stays confirmed; run again to invite them.`,
    );
  }
  return report.refused > 0 || report.stopped ? 1 : 0;
}

/** `encrypt`: seals batch after batch until no row is left outside DATA_KEY; a rerun goes on where one stopped. */
export async function encrypt(
  store: Store,
  config: ServerConfig,
  source: string,
  fail: (message: string) => never,
): Promise<number> {
  if (!config.dataKeys) fail(config.dataKeyProblem ?? "DATA_KEY is not set: make one with `openssl rand -base64 32`.");
  await store.checkDataKey();
  let total = 0;
  for (;;) {
    const { sealed, read } = await store.sealNext(500);
    total += sealed;
    if (read === 0) break;
  }
  const { plain, sealed } = await store.sealing();
  const others = Object.entries(sealed).filter(([id]) => id !== config.dataKeys?.current.id);
  const under = sealed[config.dataKeys.current.id] ?? 0;
  console.log(
    `Sealed ${plural(total, "row")} now; ${plural(under, "row")} under key ${config.dataKeys.current.id} in ${source}.`,
  );
  if (plain > 0 || others.length > 0) {
    console.log(
      `Still outside it: ${plain} plain, ${others.map(([id, n]) => `${n} under ${id}`).join(", ") || "none sealed"}. Run again.`,
    );
    return 1;
  }
  return 0;
}

/** How many sources the conversion lists (the console's page shows 6; its CSV has every one). */
const CONVERSION_SHOWN = 10;

/**
 * The console's funnel by source, from visitors, for the last 30 days (src/server/console/overview/funnel-visits.ts): each
 * source's visitors, sign-ups and sign-ups as a share of visitors.
 */
export async function conversionBySource(store: Store, today = new Date().toISOString().slice(0, 10)) {
  const funnel = withVisitors(
    await store.of(createFunnelStore).funnel("30"),
    await store.of(createVisitStore).byField(today, 30),
  );
  const line = (name: string, row: FunnelRow) => {
    const share = percent(row.signedUp, row.visitors ?? 0);
    const cells = `${String(row.visitors ?? 0).padStart(8)} ${String(row.signedUp).padStart(9)}`;
    return `  ${visibleControls(name).padEnd(24)} ${cells} ${(share === null ? "–" : `${share}%`).padStart(6)}`;
  };
  console.log("\nConversion by source, last 30 days (UTC): visitors, signed up, share");
  console.log(line("Everyone", funnel.everyone));
  for (const row of funnel.fields.source.slice(0, CONVERSION_SHOWN)) console.log(line(row.value ?? "(none)", row));
  const more = funnel.fields.source.length - CONVERSION_SHOWN;
  if (more > 0) console.log(`  and ${plural(more, "source")} more (the console's funnel CSV has every one)`);
}

/** `count`: every status, sign-ups per day, the top sources of the last 14 days, and conversion by source. */
export async function count(store: Store, source: string): Promise<void> {
  const counts = await store.countByStatus();
  const days = await store.perDay(14);
  const sources = (await store.breakdown(14, 5)).source;
  console.log(`Waitlist: ${plural(counts.total, "sign-up")} in ${source}`);
  for (const status of ENTRY_STATUSES) console.log(`  ${status.padEnd(9)} ${String(counts[status]).padStart(7)}`);
  console.log("\nLast 14 days (UTC):");
  const widest = Math.max(1, ...days.map((d) => d.count));
  for (const { day, count } of days) {
    console.log(`  ${day}  ${String(count).padStart(5)}  ${"█".repeat(Math.round((count / widest) * 30))}`);
  }
  console.log("\nTop sources, last 14 days:");
  if (sources.length === 0) console.log("  (no sign-ups)");
  for (const { value: source, count } of sources) {
    console.log(`  ${visibleControls(source ?? "(none)").padEnd(24)} ${String(count).padStart(5)}`);
  }
  await conversionBySource(store);
}

/** Deletes (with `apply`) or counts the pending sign-ups untouched for `olderThanHours`, and says so. */
export async function purgePending(
  store: Store,
  source: string,
  options: { olderThanHours: number; olderThan: string; apply: boolean; counts: Record<string, unknown> },
): Promise<void> {
  const { matched, purged } = await store.purgePending(options.olderThanHours, options.apply);
  Object.assign(options.counts, { purged });
  const what = `${matched} pending sign-up${matched === 1 ? "" : "s"} untouched for ${options.olderThan}`;
  console.log(
    options.apply
      ? `Deleted ${purged} of ${what} in ${source}.`
      : `Dry run: would delete ${what} in ${source}. Run again with --yes to delete them.`,
  );
}

/** The list to standard output in `format`, streamed batch by batch (memory holds one batch whatever its size). */
export async function exportList(
  store: Store,
  options: { since: Date | undefined; format: ExportFormat; confirmedOnly: boolean },
): Promise<void> {
  const { since, format, confirmedOnly } = options;
  // A file for a mailing tool leaves out the suppressed, as the product's own mail does, and says how many.
  const mailable = format === "mail-csv";
  const batches = await openBatches(store, { since, confirmedOnly, mailable, timeoutMs: getConfig().dbTimeoutMs * 4 });
  let bytes = 0;
  for await (const parts of exportParts(batches, format)) {
    const text = parts.join("");
    bytes += Buffer.byteLength(text);
    // Waiting for stdout to drain: a slow reader slows the reads, not the memory.
    if (!process.stdout.write(text)) await once(process.stdout, "drain");
  }
  await audit(store.db, ACTOR.cli, "export", { via: "cli", format, bytes, confirmedOnly });
  if (mailable) {
    const left = await suppressedLeftOut(store.db, { since, confirmedOnly });
    console.error(
      `Left out ${plural(left, "person", "people")} on the suppression list (hard bounces, complaints, stopped by an operator): never mail them.`,
    );
  }
}
