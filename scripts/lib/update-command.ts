/**
 * What `npm run waitlist -- update` does and prints, given the store the command opened: the dry run, the send
 * (the words are the update: src/server/updates/start.ts), going on after a cut, and --again.
 */
import type { Store } from "../../src/server/app/store";
import { getConfig, type ServerConfig } from "../../src/server/config";
import { visibleControls } from "../../src/server/csv";
import { runOwner } from "../../src/server/jobs";
import { createSmtpMailer } from "../../src/server/mail/mailer";
import { suppressedMailer } from "../../src/server/suppression";
import {
  checkDraft,
  createUpdateStore,
  type Draft,
  findSameUpdate,
  NOBODY_TO_REACH,
  sendAgain,
  sendUpdate,
  startUpdate,
  type UpdateReport,
  type UpdateStore,
  updatesKey,
} from "../../src/server/updates";
import { SITE } from "../../src/site";
import { progressBar } from "./progress";
import { audienceOf, type CliFilter, dryRunSplit, filterWords, isCliFilter } from "./segment-commands";
import { plural } from "./waitlist-commands";

interface UpdateCommand {
  store: Store;
  source: string;
  subject: string;
  body: string;
  yes: boolean;
  /** --again: the same words to those who have not received them, once the update is finished. */
  again?: boolean;
  fail: (message: string) => never;
  /** Filled with what the run did, for the audit log's completion entry. */
  counts?: Record<string, unknown>;
  /** Called once it is sure to act, before the first effect: the audit log's "started" entry. */
  starting?: () => Promise<void>;
  /** --answer (and --source): only to those it matches (segment-commands.ts). */
  filter?: CliFilter;
}

/** What the steps share once the words are checked: the update as found, and the audience it is meant for. */
interface Plan {
  command: UpdateCommand;
  draft: Draft;
  updates: UpdateStore;
  segment: Awaited<ReturnType<typeof audienceOf>> | null;
  /** ", who answered …": the filter in the dry run's words. */
  among: string;
  same: Awaited<ReturnType<typeof findSameUpdate>>;
  sentOn: string;
}

/**
 * `update`: a dry run says how many people the update would reach; with --yes it sends it (src/server/updates/),
 * or goes on with the same update (same subject and body) where a killed or cut run left it: the words are the
 * update (updates/start.ts), for the CLI as for the console. Once finished, the same words again need --again,
 * which reaches only those who have not received them.
 */
export async function update(command: UpdateCommand): Promise<number> {
  const { store, subject, body, fail } = command;
  const config = getConfig();
  const checked = checkDraft(subject, body);
  if ("problem" in checked) return fail(`${checked.problem} Nothing was sent.`);
  const { draft } = checked;
  if (!config.mail) return fail("updates need e-mail: set SMTP_URL and MAIL_FROM. Nothing was sent.");
  const updates = store.of(createUpdateStore);
  const segment = command.filter && isCliFilter(command.filter) ? await audienceOf(store, command.filter) : null;
  const among = command.filter && segment ? `, ${filterWords(command.filter)}` : "";
  const same = await findSameUpdate(updates, draft, segment);
  const sentOn = same?.since?.toISOString().slice(0, 10) ?? "";
  const plan: Plan = { command, draft, updates, segment, among, same, sentOn };
  if (same?.finished && (await sentAlready(plan)) === "dry run") return 0;
  if ((await dryRun(plan)) === "dry run") return 0;
  const report = await send(plan, config, config.mail);
  return reported(plan, report);
}

/** Finished already: refused without --again or with nobody left; else the dry run of sending it again. */
async function sentAlready({ command, draft, updates, segment, same, sentOn }: Plan): Promise<"dry run" | "send"> {
  const { fail, again, yes, source } = command;
  const left = await updates.againAudience(draft.subject, draft.body, segment);
  const already = `this update ("${visibleControls(draft.subject)}") was sent on ${sentOn} to ${plural(same?.sent ?? 0, "person", "people")}`;
  if (!again) {
    fail(
      left > 0
        ? `${already}; --again sends it to the ${plural(left, "person who has", "people who have")} not received it, or change its subject or text to send another. Nothing was sent.`
        : `${already}; everyone who said yes to updates has received it: to send another, change its subject or text. Nothing was sent.`,
    );
  }
  if (left === 0) fail(`${already}; everyone who said yes to updates has received it. Nothing was sent.`);
  if (yes) return "send";
  console.log(
    `Dry run: would send "${visibleControls(draft.subject)}" again to the ${plural(left, "person who has", "people who have")} not received it, in ${source}. Run again with --yes to send it.`,
  );
  return "dry run";
}

/** Nobody to reach: refused; without --yes: what it would do, and the split by answer. */
async function dryRun({ command, draft, updates, segment, among, same, sentOn }: Plan): Promise<"dry run" | "send"> {
  const { fail, yes, source } = command;
  // Whoever has these words already (sent to another filter) is not sent them again.
  const audience = await updates.againAudience(draft.subject, draft.body, segment);
  if (!same && audience === 0) {
    fail(
      segment
        ? `Nobody would receive this update: no confirmed person who said yes to updates${among}. Nothing was sent.`
        : `${NOBODY_TO_REACH} Nothing was sent.`,
    );
  }
  if (yes) return "send";
  console.log(
    same
      ? `Dry run: this update was started on ${sentOn} and is not finished; --yes goes on where it stopped, in ${source}.`
      : `Dry run: would send "${visibleControls(draft.subject)}" to ${plural(audience, "person", "people")} who said yes to updates${among}, in ${source}. Run again with --yes to send it.`,
  );
  if (!same && segment) dryRunSplit(segment.people, segment.split);
  return "dry run";
}

/** Starts (or finds) the update and sends it, with a progress bar; null when another run is sending it. */
async function send(
  { command, draft, updates, segment, same }: Plan,
  config: ServerConfig,
  mail: NonNullable<ServerConfig["mail"]>,
) {
  const { store, fail, counts } = command;
  await command.starting?.();
  // Two runs of one command started at once make one update (its ticket is the words), and one run sends it.
  const id = same?.finished
    ? (await sendAgain(updates, draft, "CLI", same.id, segment))?.id
    : (await startUpdate(updates, draft, "CLI", segment)).id;
  if (id === undefined) return fail("nobody is left to receive this update again. Nothing was sent.");
  if (counts) counts["update"] = id;
  const mailer = suppressedMailer(createSmtpMailer(mail, { pool: true }), config, async () => store);
  const bar = progressBar("Sending");
  const report = await sendUpdate(id, {
    updates,
    mailer,
    root: await updatesKey(store),
    site: config.siteUrl ?? SITE.url,
    owner: runOwner("cli"),
    ratePerSecond: config.mailRatePerSecond,
    onProgress: (done, total) => bar.update(done, total),
  }).finally(() => {
    bar.stop();
    mailer.close();
  });
  if (!report) return fail("another run is sending this update right now; nothing was sent by this one.");
  Object.assign(counts ?? {}, { sent: report.sent, failed: report.failed, remaining: report.remaining });
  return report;
}

/** What the run did, in one line, then why it stopped early, if it did: the exit code. */
function reported({ command, same }: Plan, report: UpdateReport): number {
  const parts = [
    `${same && !same.finished ? "Went on with" : same ? "Sent again" : "Sent"} the update in ${command.source}: ${plural(report.sent, "e-mail")} accepted`,
  ];
  if (report.failed > 0) parts.push(`${report.failed} refused by the SMTP server (recorded)`);
  if (report.skipped > 0) parts.push(`${report.skipped} skipped (stopped updates or left meanwhile)`);
  if (report.deferred > 0) {
    parts.push(`${report.deferred} not taken for now by their mail server (a third "not now" fails them)`);
  }
  console.log(`${parts.join("; ")}.`);
  if (report.stopped) {
    console.log(
      `Stopped early: the SMTP server could not be used (${report.stopped}). ${plural(report.remaining, "person is", "people are")} still to be sent it: run the same command again.`,
    );
    return 1;
  }
  if (report.remaining > 0) {
    console.log(
      `${plural(report.remaining, "person is", "people are")} still to be sent it: run the same command again later.`,
    );
    return 1;
  }
  return report.failed > 0 ? 1 : 0;
}
