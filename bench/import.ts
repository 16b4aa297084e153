/**
 * `npm run bench -- import [--small]`: the CLI's import (issue 52) on throw-away PostgreSQL databases at
 * TEST_POSTGRES_URL (127.0.0.1:5432), mail off, rows sealed under a DATA_KEY, consent asked (the default: each new
 * person pending, an e-mail owed): each run is `waitlist import FILE --yes` as typed, a new process, timed whole
 * (start-up included) with its peak resident memory and CPU time (`/usr/bin/time`'s maximum RSS, user + system),
 * and the CPU time of the PostgreSQL backends serving it (read from /proc while it runs: the server is on this
 * machine). CPU time moves far less with the machine's load than wall time does. 20,000 and 100,000 rows into an
 * empty list (memory flat: the two peaks compared), then 1,000,000 in ten files of 100,000, one after another into
 * one list, and the first file again (run twice: nobody added). `--small`: 2,000, 10,000 and 3 × 5,000.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { createTestDatabase } from "../tests/support/postgres";
import { type Run, importCommand as runImport } from "./lib/import-run";

const SMALL = process.argv.includes("--small");
const SIZES = SMALL ? [2_000, 10_000] : [20_000, 100_000];
const PARTS = SMALL ? { files: 3, rows: 5_000 } : { files: 10, rows: 100_000 };
const BUDGET = { seconds: 60, rows: 100_000, memoryGrowthMb: 20 };
const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const SOURCES = ["", "hn", "newsletter", "twitter"];
const dir = mkdtempSync(join(tmpdir(), "bench-import-"));

/** A file of `rows` sign-ups from another tool: a plain CSV with the columns any tool's export has. */
function writeCsv(name: string, from: number, rows: number): string {
  const path = join(dir, name);
  const lines = ["email,name,created_at,source"];
  const start = Date.parse("2025-01-01T00:00:00Z");
  for (let n = from; n < from + rows; n++) {
    const at = new Date(start + n * 60_000).toISOString();
    lines.push(`person${n}@example${n % 100}.com,Person ${n},${at},${SOURCES[n % SOURCES.length]}`);
  }
  writeFileSync(path, `${lines.join("\r\n")}\r\n`);
  return path;
}

async function onList(url: string): Promise<{ rows: number; sealed: number; recorded: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT (SELECT count(*) FROM waitlist)::int AS rows,
      (SELECT count(*) FROM waitlist WHERE key_id IS NOT NULL)::int AS sealed,
      (SELECT count(*) FROM waitlist_import_row)::int AS recorded`);
    return rows[0];
  } finally {
    await client.end();
  }
}

/** A fresh list with the migrations, used by `use`, then dropped. */
async function withList<T>(use: (url: string) => Promise<T>): Promise<T> {
  const database = await createTestDatabase("bench_import");
  try {
    execFileSync("node_modules/.bin/node", ["--import", "tsx", "scripts/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: "pipe",
    });
    return await use(database.url);
  } finally {
    await database.drop();
  }
}

const loads = [loadavg()[0]?.toFixed(1)];
const n = (value: number) => value.toLocaleString("en");
const importCommand = (url: string, file: string) => runImport(url, file, { DATA_KEY, SMTP_URL: "" });
const failures: string[] = [];
const rows: string[] = [];
const sized: Run[] = [];

/** A run's (or runs') CPU columns: the CLI's + the database's seconds, and both a row, in µs. */
function cpuCells(runs: Run[], rowCount: number) {
  const cli = runs.reduce((sum, run) => sum + run.cpu, 0);
  const database = runs.every((run) => run.databaseCpu !== null)
    ? runs.reduce((sum, run) => sum + (run.databaseCpu ?? 0), 0)
    : null;
  const perRow = rowCount > 0 ? `${n(Math.round(((cli + (database ?? 0)) / rowCount) * 1e6))} µs` : "—";
  return `${cli.toFixed(1)} + ${database === null ? "?" : database.toFixed(1)} s | ${perRow}`;
}
const loadOf = (runs: Run[]) => (runs.reduce((sum, run) => sum + run.load, 0) / runs.length).toFixed(1);
const said = (run: Run) =>
  `${run.seconds.toFixed(1)} s, peak ${run.peakMb.toFixed(0)} MB, CPU ${run.cpu.toFixed(1)} + ${run.databaseCpu?.toFixed(1)} s, load ${run.load.toFixed(1)}`;

try {
  for (const size of SIZES) {
    const file = writeCsv(`list-${size}.csv`, 1, size);
    const { run, list } = await withList(async (url) => ({
      run: await importCommand(url, file),
      list: await onList(url),
    }));
    console.log(`${n(size)} rows: ${said(run)}, ${JSON.stringify(list)}`);
    sized.push(run);
    if (list.rows !== size || list.sealed !== size) failures.push(`${n(size)} rows: ${JSON.stringify(list)}`);
    if (size === BUDGET.rows && run.seconds > BUDGET.seconds)
      failures.push(`${n(size)} rows took ${run.seconds.toFixed(1)} s`);
    rows.push(
      `| ${n(size)} rows, one file, empty list | ${run.seconds.toFixed(1)} s | ${n(Math.round(size / run.seconds))} | ${run.peakMb.toFixed(0)} MB | ${cpuCells([run], size)} | ${loadOf([run])} | ${n(list.rows)} (${n(list.sealed)} sealed) |`,
    );
  }
  const growth = (sized[1]?.peakMb ?? 0) - (sized[0]?.peakMb ?? 0);
  if (growth > BUDGET.memoryGrowthMb)
    failures.push(`peak memory grew ${growth.toFixed(0)} MB from ${n(SIZES[0] ?? 0)} to ${n(SIZES[1] ?? 0)} rows`);

  await withList(async (url) => {
    const total = PARTS.files * PARTS.rows;
    const files = Array.from({ length: PARTS.files }, (_, i) =>
      writeCsv(`part-${i + 1}.csv`, 1 + i * PARTS.rows, PARTS.rows),
    );
    const each: Run[] = [];
    for (const [i, file] of files.entries()) {
      each.push(await importCommand(url, file));
      console.log(`  part ${i + 1} of ${files.length}: ${said(each[i] as Run)}`);
    }
    const seconds = each.reduce((sum, run) => sum + run.seconds, 0);
    const peak = Math.max(...each.map((run) => run.peakMb));
    const list = await onList(url);
    console.log(`${n(total)} rows in ${files.length} parts: ${seconds.toFixed(1)} s, ${JSON.stringify(list)}`);
    if (list.rows !== total || list.sealed !== total)
      failures.push(`${n(total)} rows in parts: ${JSON.stringify(list)}`);
    const times = each.map((r) => r.seconds);
    rows.push(
      `| ${n(total)} rows, ${files.length} files of ${n(PARTS.rows)} one after another | ${seconds.toFixed(1)} s (each ${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)} s; last ${times.at(-1)?.toFixed(1)} s) | ${n(Math.round(total / seconds))} | ${peak.toFixed(0)} MB | ${cpuCells(each, total)} | ${loadOf(each)} | ${n(list.rows)} (${n(list.sealed)} sealed) |`,
    );
    const again = await importCommand(url, files[0] as string);
    const after = await onList(url);
    if (after.rows !== total || !/imported already/.test(again.output))
      failures.push(`the first part again: ${again.output}`);
    rows.push(
      `| the first file again (run twice) | ${again.seconds.toFixed(1)} s | — | ${again.peakMb.toFixed(0)} MB | ${cpuCells([again], 0)} | ${loadOf([again])} | ${n(after.rows)}: nobody added |`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
loads.push(loadavg()[0]?.toFixed(1));

const table = [
  "| import (`waitlist import FILE --yes`, a new process each) | time, whole command | rows/s | peak RSS | CPU: CLI + database | CPU a row | load during | on the list |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows,
].join("\n");
const growth = (sized[1]?.peakMb ?? 0) - (sized[0]?.peakMb ?? 0);
const verdict = failures.length
  ? `Over budget or wrong: ${failures.join("; ")}.`
  : `${n(BUDGET.rows)} rows within ${BUDGET.seconds} s; peak memory ${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MB from ${n(SIZES[0] ?? 0)} to ${n(SIZES[1] ?? 0)} rows (budget +${BUDGET.memoryGrowthMb} MB: streamed).`;
console.log(`\n${table}\n\n${verdict}`);
if (!SMALL) {
  writeSection(
    "import",
    [
      "## Import (`npm run bench -- import`)",
      "",
      `Measured ${new Date().toISOString().slice(0, 10)} on the ${availableParallelism()} shared cores of the project machine (load average ${loads.join(" at the start, ")} at the end),`,
      "PostgreSQL 15 on 127.0.0.1:5432, a fresh list with the migrations. Each file a plain CSV (`email,name,created_at,source`,",
      "about 80 bytes a row) imported by `waitlist import FILE --yes` as typed (a new Node process with tsx, start-up",
      "included), mail off, consent asked (each new person pending, their e-mail owed to the scheduled jobs), every row",
      "sealed under `DATA_KEY`; peak RSS is `/usr/bin/time`'s maximum resident set of that process, its CPU time",
      "`/usr/bin/time`'s user + system, the database's that of the PostgreSQL backends serving it (from /proc, sampled",
      "every 100 ms), and the load the machine's 1-minute load average during the run (its mean): CPU time moves far",
      "less with the load than wall time does.",
      "",
      table,
      "",
      verdict,
    ].join("\n"),
  );
}
if (failures.length > 0) process.exitCode = 1;
