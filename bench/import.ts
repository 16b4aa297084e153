/**
 * `npm run bench -- import [--small]`: the CLI's import (issue 52) on throw-away PostgreSQL databases at
 * TEST_POSTGRES_URL (127.0.0.1:5432), mail off, rows sealed under a DATA_KEY, consent asked (the default: each new
 * person pending, an e-mail owed): each run is `waitlist import FILE --yes` as typed, a new process, timed whole
 * (start-up included) with its peak resident memory (`/usr/bin/time`'s maximum RSS). 20,000 and 100,000 rows into
 * an empty list (memory flat: the two peaks compared), then 1,000,000 in ten files of 100,000, one after another
 * into one list, and the first file again (run twice: nobody added). `--small`: 2,000, 10,000 and 3 × 5,000.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { createTestDatabase } from "../tests/support/postgres";

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

interface Run {
  seconds: number;
  peakMb: number;
  output: string;
}

/** `waitlist import FILE --yes` into the database at `url`, timed whole, with the process's peak RSS. */
function importCommand(url: string, file: string): Run {
  const started = performance.now();
  const result = spawnSync(
    "/usr/bin/time",
    [
      "-f",
      "peak-rss-kb %M",
      "node_modules/.bin/node",
      "--import",
      "tsx",
      "scripts/waitlist.ts",
      "import",
      file,
      "--yes",
    ],
    { env: { ...process.env, DATABASE_URL: url, DATA_KEY, SMTP_URL: "" }, encoding: "utf8" },
  );
  const seconds = (performance.now() - started) / 1000;
  const peak = Number(/peak-rss-kb (\d+)/.exec(result.stderr)?.[1] ?? 0);
  if (result.status !== 0) throw new Error(`import of ${file} exited ${result.status}:\n${result.stderr}`);
  return { seconds, peakMb: peak / 1024, output: result.stdout.trim() };
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
const failures: string[] = [];
const rows: string[] = [];
const sized: Run[] = [];
try {
  for (const size of SIZES) {
    const file = writeCsv(`list-${size}.csv`, 1, size);
    const run = await withList(async (url) => ({ run: importCommand(url, file), list: await onList(url) }));
    console.log(
      `${n(size)} rows: ${run.run.seconds.toFixed(1)} s, peak ${run.run.peakMb.toFixed(0)} MB, ${JSON.stringify(run.list)}`,
    );
    sized.push(run.run);
    if (run.list.rows !== size || run.list.sealed !== size)
      failures.push(`${n(size)} rows: ${JSON.stringify(run.list)}`);
    if (size === BUDGET.rows && run.run.seconds > BUDGET.seconds)
      failures.push(`${n(size)} rows took ${run.run.seconds.toFixed(1)} s`);
    rows.push(
      `| ${n(size)} rows, one file, empty list | ${run.run.seconds.toFixed(1)} s | ${n(Math.round(size / run.run.seconds))} | ${run.run.peakMb.toFixed(0)} MB | ${n(run.list.rows)} (${n(run.list.sealed)} sealed) |`,
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
    const each = files.map((file, i) => {
      const run = importCommand(url, file);
      console.log(`  part ${i + 1} of ${files.length}: ${run.seconds.toFixed(1)} s, peak ${run.peakMb.toFixed(0)} MB`);
      return run;
    });
    const seconds = each.reduce((sum, run) => sum + run.seconds, 0);
    const peak = Math.max(...each.map((run) => run.peakMb));
    const list = await onList(url);
    console.log(
      `${n(total)} rows in ${files.length} parts: ${seconds.toFixed(1)} s (${each.map((r) => r.seconds.toFixed(1)).join(", ")}), ${JSON.stringify(list)}`,
    );
    if (list.rows !== total || list.sealed !== total)
      failures.push(`${n(total)} rows in parts: ${JSON.stringify(list)}`);
    rows.push(
      `| ${n(total)} rows, ${files.length} files of ${n(PARTS.rows)} one after another | ${seconds.toFixed(1)} s (each ${Math.min(...each.map((r) => r.seconds)).toFixed(1)}–${Math.max(...each.map((r) => r.seconds)).toFixed(1)} s; last ${each.at(-1)?.seconds.toFixed(1)} s) | ${n(Math.round(total / seconds))} | ${peak.toFixed(0)} MB | ${n(list.rows)} (${n(list.sealed)} sealed) |`,
    );
    const again = importCommand(url, files[0] as string);
    const after = await onList(url);
    if (after.rows !== total || !/imported already/.test(again.output))
      failures.push(`the first part again: ${again.output}`);
    rows.push(
      `| the first file again (run twice) | ${again.seconds.toFixed(1)} s | — | ${again.peakMb.toFixed(0)} MB | ${n(after.rows)}: nobody added |`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
loads.push(loadavg()[0]?.toFixed(1));

const table = [
  "| import (`waitlist import FILE --yes`, a new process each) | time, whole command | rows/s | peak RSS | on the list |",
  "| --- | ---: | ---: | ---: | ---: |",
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
      "sealed under `DATA_KEY`; peak RSS is `/usr/bin/time`'s maximum resident set of that process.",
      "",
      table,
      "",
      verdict,
    ].join("\n"),
  );
}
if (failures.length > 0) process.exitCode = 1;
