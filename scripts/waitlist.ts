/**
 * `npm run waitlist -- <command>`: the waitlist from the command line.
 *   count                                      total, and sign-ups per day for the last 14 days
 *   export [--format csv|json] [--since DATE]  every entry (or those since DATE, YYYY-MM-DD) to standard output
 * Reads DATABASE_URL, else NETLIFY_DB_URL, else the embedded database in DATA_DIR (default .data/).
 * Any failure is one line on standard error and exit status 2; nothing is ever changed.
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
  count                       total sign-ups, and sign-ups per day for the last 14 days
  export                      every entry, to standard output
    --format csv|json         output format (default: csv; RFC 4180, formulas neutralised)
    --since YYYY-MM-DD        only entries created on or after that day (UTC)

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
      options: { format: { type: "string" }, since: { type: "string" }, help: { type: "boolean", short: "h" } },
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
if (command !== "count" && command !== "export") fail(`unknown command "${command}"\n\n${HELP}`);

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
  else process.stdout.write(formatEntries([], format));
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
    const total = await store.count();
    const days = await store.perDay(14);
    console.log(`Waitlist: ${total} sign-up${total === 1 ? "" : "s"} in ${source}\n\nLast 14 days (UTC):`);
    const widest = Math.max(1, ...days.map((d) => d.count));
    for (const { day, count } of days) {
      console.log(`  ${day}  ${String(count).padStart(5)}  ${"█".repeat(Math.round((count / widest) * 30))}`);
    }
  } else {
    process.stdout.write(formatEntries(await store.list(since), format));
  }
} catch (error) {
  await store.close().catch(() => {});
  fail(`cannot read ${explainDbError(error, connection)}`);
}
await store.close();
