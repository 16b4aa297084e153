/**
 * `npm run waitlist -- <command>`: the waitlist from the command line.
 *   count                                      every status, sign-ups per day and top sources for 14 days
 *   export [--format csv|mail-csv|json] [--since DATE] [--confirmed-only]   entries to standard output, streamed
 *   invite --next N [--yes]                    lets the N oldest confirmed in (a dry run without --yes)
 *   invite --answer ID=VALUE… [--source S] [--next N] [--yes]   everyone (or the N oldest) who answered so
 *   update --subject S --body-file F [--answer ID=VALUE…] [--again] [--yes]   writes to the people who said yes to
 *                                              updates (who answered so; a dry run without --yes; --again: the
 *                                              same words to those who have not had them)
 *   webhooks deliver | off                     delivers the webhook events that are due, now; or stops recording them
 *   purge-pending --older-than 14d [--yes]     deletes never-confirmed sign-ups (a dry run without --yes)
 *   encrypt                                    seals every row not yet under DATA_KEY (resumable)
 *   import FILE [--consent confirmed|ask] [--source NAME] [--yes]   a list from another tool (a dry run without
 *                                              --yes; killed, the same command goes on)
 *   reminders [--yes]                          the reminders due now: to confirm, and of an invitation (a dry run
 *                                              without --yes)
 *   doctor [--json]                            every setting and what answers (exit 1: something required is not)
 * Reads DATABASE_URL, else NETLIFY_DB_URL, else the embedded database in DATA_DIR (default .data/).
 * Any failure is one line on standard error and exit status 2 (1: a wave some of whose e-mails were refused);
 * only `invite --yes`, `update --yes`, `import --yes`, `purge-pending --yes`, `encrypt`, `webhooks deliver` and `webhooks off` change
 * anything, and each is in the audit log: an entry when it starts, before its first effect, and one when it ends.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { allowEmbeddedDatabase, openStore } from "../src/server/app/instance";
import type { Store } from "../src/server/app/store";
import { ACTOR, type AuditedAction, auditStart } from "../src/server/audit";
import { getConfig } from "../src/server/config";
import { RENAME_SECRET } from "../src/server/config/secret";
import { secretSaid } from "../src/server/crypto/secret";
import { DataKeyError } from "../src/server/data-key";
import { type Connection, chooseConnection, describeConnection } from "../src/server/db/connection";
import { DataDirLockedError } from "../src/server/db/lock";
import { openPgliteDb } from "../src/server/db/pglite";
import { formatEntries } from "../src/server/export/rows";
import { logToStandardError } from "../src/server/log";
import { explainDbError } from "./lib/db-errors";
import { doctor } from "./lib/doctor-command";
import { importCommand, keepHeapSteady } from "./lib/import-command";
import { reminders } from "./lib/reminders-command";
import { filterWords, inviteFiltered, isCliFilter } from "./lib/segment-commands";
import { update } from "./lib/update-command";
import { commandArguments } from "./lib/waitlist-arguments";
import { count, encrypt, exportList, invite, purgePending } from "./lib/waitlist-commands";
import { COMMANDS, HELP, OPTIONS } from "./lib/waitlist-help";
import { webhooks } from "./lib/webhooks-command";

// Standard output is the command's answer (a CSV, a summary): the server's log lines go to standard error.
logToStandardError();

function fail(message: string): never {
  console.error(`waitlist: ${message}`);
  process.exit(2);
}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${HELP}`);
  }
})();
const command = positionals[0];
if (values.help || !command || command === "help") {
  console.log(HELP);
  process.exit(command || values.help ? 0 : 2);
}
if (!(COMMANDS as readonly string[]).includes(command)) fail(`unknown command "${command}"\n\n${HELP}`);
// Before anything that may refuse the configuration: listing what is wrong with it is doctor's whole job.
if (command === "doctor") process.exit(await doctor(getConfig(), values.json ?? false));
// A server secret that cannot be used stops every command (one line naming it); its old name is said once.
if (getConfig().serverSecretProblem) fail(getConfig().serverSecretProblem as string);
// A value that cannot be read is never taken as its default: every such line, and nothing runs.
if (getConfig().unreadable.length > 0) fail(getConfig().unreadable.join("\nwaitlist: "));
if (getConfig().serverSecretName === "RATE_LIMIT_SECRET") {
  console.error(`waitlist: ${RENAME_SECRET}`);
  secretSaid();
}
const { olderThanHours, next, accessUrl, body, importFilePath, consent, format, since, filter } = commandArguments(
  command,
  positionals,
  values,
  getConfig(),
  fail,
);

const config = getConfig();
let connection: Connection;
try {
  connection = chooseConnection(config);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const source = describeConnection(connection);
// An import may start a list: it opens (and so makes) the embedded database like the site would.
if (command !== "import" && connection.kind === "embedded" && !existsSync(join(connection.dataDir, "pg"))) {
  // Opening would create a database: report an empty list instead, and change nothing.
  if (command === "count") console.log(`No sign-ups yet: there is no embedded database in ${connection.dataDir}/.`);
  else if (command === "export") process.stdout.write(await formatEntries([], format));
  else if (command === "encrypt")
    console.log(`Nothing to seal: there is no embedded database in ${connection.dataDir}/.`);
  else if (command === "invite")
    console.log(`Nobody to invite: there is no embedded database in ${connection.dataDir}/.`);
  else if (command === "update")
    fail(`Nobody would receive this update: there is no embedded database in ${connection.dataDir}/.`);
  else if (command === "reminders")
    console.log(`Nobody to remind: there is no embedded database in ${connection.dataDir}/.`);
  else console.log(`Nothing to purge: there is no embedded database in ${connection.dataDir}/.`);
  process.exit(0);
}

allowEmbeddedDatabase(openPgliteDb);
let store: Store;
try {
  store = await openStore(config);
  // A key that does not open the rows already sealed is refused before any command reads or writes with it.
  await store.checkDataKey();
} catch (error) {
  if (error instanceof DataKeyError) fail(`${error.message} Nothing was changed.`);
  if (error instanceof DataDirLockedError) {
    fail(
      `${error.message}\nThe local server (npm start) holds it; stop the server, then run this again. Nothing was changed.`,
    );
  }
  fail(`cannot open ${explainDbError(error, connection)}`);
}

/** A refusal met inside a command (after its audit entry may have started): said as `fail` says it, once ended. */
class Refused extends Error {}
const refuse = (message: string): never => {
  throw new Refused(message);
};

let exitCode = 0;
/**
 * A command that changes something is in the audit log from its start, before its first effect (a run killed
 * half-way leaves that entry), and completed with what it did when it ends (audit/index.ts).
 */
let entry: AuditedAction | null = null;
const counts: Record<string, unknown> = {};
const starting = (action: string, details: Record<string, unknown>) => async () => {
  entry = await auditStart(store.db, ACTOR.cli, action, details);
};
try {
  if (command === "count") {
    await count(store, source);
  } else if (command === "invite") {
    const yes = values.yes ?? false;
    const base = accessUrl as URL;
    exitCode = isCliFilter(filter)
      ? await inviteFiltered({ store, source, next, yes, base, counts, filter, starting: (d) => starting("wave", d)() })
      : await invite({ store, source, next, yes, base, counts, starting: starting("wave", { size: next }) });
  } else if (command === "update") {
    const subject = values.subject ?? "";
    exitCode = await update({
      filter,
      store,
      source,
      subject,
      body,
      yes: values.yes ?? false,
      again: values.again ?? false,
      fail: refuse,
      counts,
      starting: starting("update", {
        subject,
        again: values.again ?? false,
        ...(isCliFilter(filter) ? { filter: filterWords(filter) } : {}),
      }),
    });
  } else if (command === "webhooks") {
    const off = positionals[1] === "off";
    exitCode = await webhooks({
      store,
      config,
      source,
      off,
      counts,
      starting: (action) => starting(action, {})(),
      fail: refuse,
    });
  } else if (command === "export") {
    await exportList(store, { since, format, confirmedOnly: values["confirmed-only"] ?? false });
  } else if (command === "encrypt") {
    if (config.dataKeys) await starting("encrypt", { key: config.dataKeys.current.id })();
    exitCode = await encrypt(store, config, source, refuse);
  } else if (command === "import") {
    keepHeapSteady();
    exitCode = await importCommand({
      store,
      source,
      file: importFilePath,
      consent: consent as "ask" | "confirmed",
      rowSource: values.source?.trim() ?? null,
      yes: values.yes ?? false,
      fail: refuse,
      counts,
    });
  } else if (command === "reminders") {
    exitCode = await reminders(store, config, source, values.yes ?? false);
  } else {
    const apply = values.yes ?? false;
    if (apply) await starting("purge-pending", { olderThanHours })();
    await purgePending(store, source, { olderThanHours, olderThan: values["older-than"] ?? "", apply, counts });
  }
} catch (error) {
  if (error instanceof Refused) {
    await (entry as AuditedAction | null)?.end({ ...counts, refused: error.message });
    await store.close().catch(() => {});
    fail(error.message);
  }
  await (entry as AuditedAction | null)?.end({ ...counts, error: explainDbError(error, connection) });
  await store.close().catch(() => {});
  fail(`cannot ${command === "invite" ? "invite in" : "read"} ${explainDbError(error, connection)}`);
}
await (entry as AuditedAction | null)?.end({ ...counts, exit: exitCode });
await store.close();
process.exitCode = exitCode;
