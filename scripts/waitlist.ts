/**
 * `npm run waitlist -- <command>`: the waitlist from the command line.
 *   count                                      total, and sign-ups per day for the last 14 days
 *   export [--format csv|json] [--since DATE]  every entry (or those since DATE, YYYY-MM-DD) to standard output
 * Reads DATABASE_URL / NETLIFY_DB_URL (Neon), else the embedded database in DATA_DIR (default .data/).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getConfig } from "../src/server/config";
import { type ExportFormat, formatEntries } from "../src/server/export";
import { DataDirLockedError } from "../src/server/lock";
import { openStore, type Store } from "../src/server/store";

const HELP = `Usage: npm run waitlist -- <command> [options]

Commands:
  count                       total sign-ups, and sign-ups per day for the last 14 days
  export                      every entry, to standard output
    --format csv|json         output format (default: csv; RFC 4180, formulas neutralised)
    --since YYYY-MM-DD        only entries created on or after that day (UTC)

Reads DATABASE_URL or NETLIFY_DB_URL (Neon), else the embedded database in DATA_DIR (default .data/).
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
const source = config.databaseUrl ? "Neon (DATABASE_URL)" : `the embedded database in ${config.dataDir}/`;
if (!config.databaseUrl && !existsSync(join(config.dataDir, "pg"))) {
  // Opening would create a database: report an empty list instead, and change nothing.
  if (command === "count") console.log(`No sign-ups yet: there is no embedded database in ${config.dataDir}/.`);
  else process.stdout.write(formatEntries([], format));
  process.exit(0);
}

let store: Store;
try {
  store = await openStore(config);
} catch (error) {
  if (error instanceof DataDirLockedError) {
    fail(
      `${error.message}\nThe local server (npm start) holds it; stop the server, then run this again. Nothing was changed.`,
    );
  }
  fail(`cannot open ${source}: ${error instanceof Error ? error.message : String(error)}`);
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
} finally {
  await store.close();
}
