/**
 * `npm run waitlist -- <command>`: the waitlist from the command line.
 *   count                                      total (confirmed and pending), and sign-ups per day for 14 days
 *   export [--format csv|json] [--since DATE] [--confirmed-only]   entries to standard output
 *   purge-pending --older-than 14d [--yes]     deletes never-confirmed sign-ups (a dry run without --yes)
 * Reads DATABASE_URL, else NETLIFY_DB_URL, else the embedded database in DATA_DIR (default .data/).
 * Any failure is one line on standard error and exit status 2; only `purge-pending --yes` changes anything.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getConfig } from "../src/server/config";
import { type Connection, chooseConnection, describeConnection } from "../src/server/db/connection";
import { DataDirLockedError } from "../src/server/db/lock";
import { openPgliteDb } from "../src/server/db/pglite";
import { type ExportFormat, formatEntries } from "../src/server/export";
import type { Store } from "../src/server/store";
import { allowEmbeddedDatabase, openStore } from "../src/server/store-instance";
import { explainDbError } from "./lib/db-errors";

const HELP = `Usage: npm run waitlist -- <command> [options]

Commands:
  count                       total sign-ups (confirmed and pending), and sign-ups per day for the last 14 days
  export                      every entry, with its status, to standard output
    --format csv|json         output format (default: csv; RFC 4180, formulas neutralised)
    --since YYYY-MM-DD        only entries created on or after that day (UTC)
    --confirmed-only          only confirmed entries
  purge-pending               deletes sign-ups never confirmed (only when confirmation by e-mail is on)
    --older-than 14d          required: untouched for that long (days, e.g. 14d; or hours, e.g. 36h)
    --yes                     really delete; without it, only says how many would go

Reads DATABASE_URL, else NETLIFY_DB_URL, else the embedded database in DATA_DIR (default .data/).
While \`npm start\` holds the embedded database, stop it first: nothing is changed either way.`;

function fail(message: string): never {
  console.error(`waitlist: ${message}`);
  process.exit(2);
}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        format: { type: "string" },
        since: { type: "string" },
        "confirmed-only": { type: "boolean" },
        "older-than": { type: "string" },
        yes: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
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
if (command !== "count" && command !== "export" && command !== "purge-pending") {
  fail(`unknown command "${command}"\n\n${HELP}`);
}
/** --older-than in hours: `14d` or `36h`. */
let olderThanHours = 0;
if (command === "purge-pending") {
  const match = /^(\d+)(d|h)$/.exec(values["older-than"] ?? "");
  if (!match) fail(`purge-pending needs --older-than with a number of days or hours, e.g. 14d or 36h`);
  olderThanHours = Number(match[1]) * (match[2] === "d" ? 24 : 1);
  if (olderThanHours < 24) fail(`--older-than must be at least 1d (24h), not "${values["older-than"]}"`);
}

const format = (values.format ?? "csv") as ExportFormat;
if (format !== "csv" && format !== "json") fail(`--format must be csv or json, not "${values.format}"`);
let since: Date | undefined;
if (values.since !== undefined) {
  since = /^\d{4}-\d{2}-\d{2}$/.test(values.since) ? new Date(`${values.since}T00:00:00Z`) : undefined;
  if (!since || Number.isNaN(since.getTime())) fail(`--since must be a date as YYYY-MM-DD, not "${values.since}"`);
}

const config = getConfig();
let connection: Connection;
try {
  connection = chooseConnection(config);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const source = describeConnection(connection);
if (connection.kind === "embedded" && !existsSync(join(connection.dataDir, "pg"))) {
  // Opening would create a database: report an empty list instead, and change nothing.
  if (command === "count") console.log(`No sign-ups yet: there is no embedded database in ${connection.dataDir}/.`);
  else if (command === "export") process.stdout.write(formatEntries([], format));
  else console.log(`Nothing to purge: there is no embedded database in ${connection.dataDir}/.`);
  process.exit(0);
}

allowEmbeddedDatabase(openPgliteDb);
let store: Store;
try {
  store = await openStore(config);
} catch (error) {
  if (error instanceof DataDirLockedError) {
    fail(
      `${error.message}\nThe local server (npm start) holds it; stop the server, then run this again. Nothing was changed.`,
    );
  }
  fail(`cannot open ${explainDbError(error, connection)}`);
}

try {
  if (command === "count") {
    const { total, confirmed, pending } = await store.countByStatus();
    const days = await store.perDay(14);
    console.log(`Waitlist: ${total} sign-up${total === 1 ? "" : "s"} in ${source}`);
    console.log(
      `  confirmed ${String(confirmed).padStart(7)}\n  pending   ${String(pending).padStart(7)}\n\nLast 14 days (UTC):`,
    );
    const widest = Math.max(1, ...days.map((d) => d.count));
    for (const { day, count } of days) {
      console.log(`  ${day}  ${String(count).padStart(5)}  ${"█".repeat(Math.round((count / widest) * 30))}`);
    }
  } else if (command === "export") {
    const confirmedOnly = values["confirmed-only"] ?? false;
    process.stdout.write(formatEntries(await store.list(since, { confirmedOnly }), format));
  } else {
    const apply = values.yes ?? false;
    const { matched, purged } = await store.purgePending(olderThanHours, apply);
    const what = `${matched} pending sign-up${matched === 1 ? "" : "s"} untouched for ${values["older-than"]}`;
    console.log(
      apply
        ? `Deleted ${purged} of ${what} in ${source}.`
        : `Dry run: would delete ${what} in ${source}. Run again with --yes to delete them.`,
    );
  }
} catch (error) {
  await store.close().catch(() => {});
  fail(`cannot read ${explainDbError(error, connection)}`);
}
await store.close();
