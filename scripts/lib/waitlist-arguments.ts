/**
 * The arguments of each command of `npm run waitlist`, checked before any database is opened: a command given
 * something it cannot use stops with one line (`fail`) and nothing is changed.
 */
import { existsSync, readFileSync } from "node:fs";
import { PURGE_MIN_DAYS } from "../../src/lib/waitlist/consent";
import type { ServerConfig } from "../../src/server/config";
import { EXPORT_FORMATS, type ExportFormat } from "../../src/server/export/rows";
import { earlyAccessBase, InviteConfigError } from "../../src/server/invitations";
import { type Segment, SegmentError, segmentOfPairs } from "../../src/server/segments";
import type { CliFilter } from "./segment-commands";

export interface WaitlistValues {
  "older-than"?: string | undefined;
  next?: string | undefined;
  subject?: string | undefined;
  "body-file"?: string | undefined;
  consent?: string | undefined;
  source?: string | undefined;
  format?: string | undefined;
  since?: string | undefined;
  answer?: string[] | undefined;
}

type Fail = (message: string) => never;

/** invite's and update's filter: --answer ID=VALUE (repeated) and --source NAME, checked against questions.json. */
function filterOf(command: string, values: WaitlistValues, fail: Fail): CliFilter {
  const filtering = command === "invite" || command === "update";
  if (!filtering && values.answer?.length) fail(`--answer is for invite and update, not ${command}`);
  let answers: Segment = {};
  try {
    answers = segmentOfPairs(filtering ? (values.answer ?? []) : []);
  } catch (error) {
    if (error instanceof SegmentError) fail(`--answer: ${error.message}. Nothing was changed.`);
    throw error;
  }
  const source = filtering ? (values.source ?? null) : null;
  if (source !== null && (source.trim() === "" || source.length > 253)) fail("--source must name a source, e.g. hn");
  return { answers, source };
}

/** Each command's arguments checked in turn (the first problem stops it); the values every command may read. */
export function commandArguments(
  command: string,
  positionals: readonly string[],
  values: WaitlistValues,
  config: ServerConfig,
  fail: Fail,
) {
  const olderThanHours = command === "purge-pending" ? purgeHours(values, fail) : 0;
  const filter = filterOf(command, values, fail);
  const { next, accessUrl } = command === "invite" ? inviteArguments(values, config, filter, fail) : { next: 0 };
  if (command === "webhooks") checkWebhooks(positionals, config, fail);
  const body = command === "update" ? updateBody(values, fail) : "";
  /** import: the file, the consent mode (ask unless told), the source of rows that name none. */
  const importFilePath = positionals[1] ?? "";
  const consent = values.consent ?? "ask";
  if (command === "import") checkImport(importFilePath, consent, values, fail);
  const { format, since } = exportArguments(values, fail);
  return { olderThanHours, next, accessUrl, body, importFilePath, consent, format, since, filter };
}

/** purge-pending's --older-than in hours (`14d` or `36h`), never less than a confirmation link lasts. */
function purgeHours(values: WaitlistValues, fail: Fail): number {
  const match = /^(\d+)(d|h)$/.exec(values["older-than"] ?? "");
  if (!match) fail(`purge-pending needs --older-than with a number of days or hours, e.g. 14d or 36h`);
  const hours = Number(match[1]) * (match[2] === "d" ? 24 : 1);
  if (hours < PURGE_MIN_DAYS * 24) {
    fail(
      `--older-than must be at least ${PURGE_MIN_DAYS}d (${PURGE_MIN_DAYS * 24}h), not "${values["older-than"]}": a confirmation link works for ${PURGE_MIN_DAYS} days, and nobody whose link still works is purged. Nothing was changed.`,
    );
  }
  return hours;
}

/** invite's --next (none, with a filter: everyone it matches) and the early access address it needs. */
function inviteArguments(values: WaitlistValues, config: ServerConfig, filter: CliFilter, fail: Fail) {
  const filtered = Object.keys(filter.answers).length > 0 || filter.source !== null;
  const next = /^\d{1,6}$/.test(values.next ?? "") ? Number(values.next) : 0;
  // With a filter, no --next is everyone it matches (0 here).
  if (next < 1 && !(filtered && values.next === undefined)) {
    fail(
      `invite needs --next with a number of people from 1 to 999999, e.g. --next 100 (or --answer ID=VALUE to invite everyone who answered so)`,
    );
  }
  try {
    return { next, accessUrl: earlyAccessBase(config.earlyAccessUrl) };
  } catch (error) {
    if (error instanceof InviteConfigError) fail(error.message);
    throw error;
  }
}

/** webhooks deliver (needs WEBHOOK_URL and its secret) or webhooks off (needs WEBHOOK_URL unset). */
function checkWebhooks(positionals: readonly string[], config: ServerConfig, fail: Fail): void {
  if (positionals[1] !== "deliver" && positionals[1] !== "off") {
    fail('webhooks needs what to do: "webhooks deliver" or "webhooks off"');
  }
  if (config.webhookProblem) fail(config.webhookProblem as string);
  if (positionals[1] === "deliver" && !config.webhook) {
    fail("webhooks are off: set WEBHOOK_URL and WEBHOOK_SECRET to deliver them.");
  }
  if (positionals[1] === "off" && config.webhook) {
    fail("WEBHOOK_URL is set for this command: unset it to stop recording events. Nothing was changed.");
  }
}

/** update's --subject present, and the text of its --body-file. */
function updateBody(values: WaitlistValues, fail: Fail): string {
  if (values.subject === undefined) fail("update needs --subject with the update's subject, in quotes");
  const file = values["body-file"];
  if (!file) fail("update needs --body-file with the path of the update's text");
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    return fail(
      `cannot read --body-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** import's file exists, its consent mode is known, and its --source is a name on one line. */
function checkImport(importFilePath: string, consent: string, values: WaitlistValues, fail: Fail): void {
  if (!importFilePath) fail("import needs the file to import: npm run waitlist -- import FILE");
  if (!existsSync(importFilePath)) fail(`cannot read ${importFilePath}: there is no such file. Nothing was changed.`);
  if (consent !== "ask" && consent !== "confirmed") fail(`--consent must be ask or confirmed, not "${consent}"`);
  const named = values.source;
  if (named !== undefined && !/^[^\p{C}\u2028\u2029]{1,100}$/u.test(named.trim())) {
    fail("--source must be a name of 1 to 100 characters on one line");
  }
}

/** export's --format and --since (a day, UTC). */
function exportArguments(values: WaitlistValues, fail: Fail): { format: ExportFormat; since: Date | undefined } {
  const format = (values.format ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) fail(`--format must be ${EXPORT_FORMATS.join(", ")}; not "${values.format}"`);
  let since: Date | undefined;
  if (values.since !== undefined) {
    since = /^\d{4}-\d{2}-\d{2}$/.test(values.since) ? new Date(`${values.since}T00:00:00Z`) : undefined;
    if (!since || Number.isNaN(since.getTime())) fail(`--since must be a date as YYYY-MM-DD, not "${values.since}"`);
  }
  return { format, since };
}
