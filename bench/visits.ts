/**
 * `npm run bench -- visits [--small]`: the cookie-free visit count (issue 51) under load and at size, on throw-away
 * PostgreSQL databases at TEST_POSTGRES_URL (127.0.0.1:5432), served by `npm start`'s server with Netlify's rate
 * limits on (as deployed):
 *
 * 1. 1,000,000 views over 30 days from 200,000 day-visitors, filled by SQL as src/server/visits/store.ts stores them
 *    (bench/lib/visits-fill.ts; with 20,000 sign-ups for the funnel to convert), and their tally made by migration
 *    0028's refill: rows stored, bytes on disk, the console's reads as SQL alone, the count statement alone, and the
 *    console's overview and funnel over HTTP; then beacons posted as fast as the machine allows, from one address (a
 *    flood, cut at the edge) and from 250 (many visitors): answers a second, p50, p99, every view taken counted, and
 *    the tally still the rollups' sums.
 * 2. 1,000,000 sign-ups and 10,000,000 views over 180 days (2,000,000 day-visitors): the overview and the funnel,
 *    whose budget is the console's (≤ 100 ms a page, issue 51 point 4).
 *
 * `--small` (a smoke check, seconds, nothing written): 10,000 views and 100,000, 2 s of beacons. Otherwise the table
 * goes to docs/performance.md.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { createTestDatabase } from "../tests/support/postgres";
import { beaconsFromManyAddresses, floodFromOneAddress } from "./lib/beacons";
import { BENCH_TOKEN, type PageTiming, signIn, timePage } from "./lib/console-session";
import { fillSql } from "./lib/scale-measure";
import { marksFillSql, TALLY_CHECK_SQL, TALLY_FILL_SQL, VISITS_SIZE_SQL, visitsFillSql } from "./lib/visits-fill";
import { timeCountStatement, timeVisitReads } from "./lib/visits-reads";
import { PAGES, type Size, type SizeRun, type Stored, visitsTable } from "./lib/visits-table";

const SMALL = process.argv.includes("--small");
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? (SMALL ? 2 : 8));
const CONNECTIONS = 10;
const ADDRESSES = 250;
const BUDGET_MS = 100;

const MAIN: Size = SMALL
  ? { name: "10k views", views: 10_000, visitors: 2_000, days: 30, signUps: 10_000 }
  : { name: "1M views", views: 1_000_000, visitors: 200_000, days: 30, signUps: 20_000 };
const LARGE: Size = SMALL
  ? { name: "100k views, 10k sign-ups", views: 100_000, visitors: 20_000, days: 180, signUps: 10_000 }
  : { name: "10M views, 1M sign-ups", views: 10_000_000, visitors: 2_000_000, days: 180, signUps: 1_000_000 };

const sql = async (url: string, statements: string[]) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const results = [];
    for (const statement of statements) results.push(await client.query(statement));
    return results;
  } finally {
    await client.end();
  }
};
const viewsCounted = async (url: string) =>
  Number((await sql(url, ["SELECT coalesce(sum(views), 0) AS n FROM visit_rollup WHERE page <> '*'"]))[0]?.rows[0].n);
/** Whether the tally's days and months both sum to the site's rollups. */
const tallied = async (url: string) => {
  const row = (await sql(url, [TALLY_CHECK_SQL]))[0]?.rows[0];
  return row?.rollups === row?.day_tally && row?.rollups === row?.month_tally;
};

/** The list, the visits and their tally, each timed (s): a statement each, set-based (generate_series). */
async function fill(url: string, size: Size): Promise<SizeRun["fill"]> {
  const timed = async (statements: string[]) => {
    const started = performance.now();
    await sql(url, ["SET work_mem = '256MB'", ...statements]);
    return (performance.now() - started) / 1000;
  };
  return {
    signUps: await timed([fillSql(size.signUps)]),
    visits: await timed([
      visitsFillSql(size.views, size.visitors, size.days),
      ...marksFillSql(size.views, size.visitors, size.days),
    ]),
    tally: await timed([TALLY_FILL_SQL]),
  };
}

async function measure(size: Size, beacons: boolean): Promise<SizeRun> {
  console.log(
    `\n${size.name}: ${size.views.toLocaleString("en")} views, ${size.signUps.toLocaleString("en")} sign-ups`,
  );
  const database = await createTestDatabase("bench_visits");
  const dataDir = mkdtempSync(join(tmpdir(), "bench-visits-"));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    execFileSync("node_modules/.bin/node", ["--import", "tsx", "scripts/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: "pipe",
    });
    const filled = await fill(database.url, size);
    await sql(database.url, ["VACUUM ANALYZE"]);
    const stored = (await sql(database.url, [VISITS_SIZE_SQL]))[0]?.rows[0] as Stored;
    console.log(`  filled (s): ${JSON.stringify(filled)}: ${JSON.stringify(stored)}`);
    // The load as the reads and pages are timed: the fill before them is a load of its own.
    const loadAtReads = loadavg()[0] ?? 0;
    const reads = await timeVisitReads(database.url);
    console.log(`  SQL alone: ${JSON.stringify(reads)}`);

    server = await startServer(
      {
        DATABASE_URL: database.url,
        WAITLIST_ADMIN_TOKEN: BENCH_TOKEN,
        SMTP_URL: "",
        HOST: "127.0.0.1",
        NETLIFY_RATE_LIMIT: "on",
      },
      join(dataDir, "data"),
    );
    const cookie = await signIn(server.url);
    // One round over every page first: the server compiles its code on its first requests, which the first page
    // timed would otherwise pay for the others.
    for (const [, path, expected] of PAGES) await timePage(server.url, cookie, path, expected, 2);
    const pages: Record<string, PageTiming> = {};
    for (const [label, path, expected] of PAGES) {
      pages[label] = await timePage(server.url, cookie, path, expected);
      console.log(`  ${label}: ${pages[label]?.median.toFixed(1)} ms median (${pages[label]?.ok ? "ok" : "WRONG"})`);
    }
    // After the pages: the arrivals it counts are today's, which the pages read.
    const count = await timeCountStatement(database.url, SMALL ? 1 : 3);
    console.log(`  count statement alone: ${JSON.stringify(count)}`);
    const run = { size, fill: filled, stored, loadAtReads, pages, reads, count };
    if (!beacons) return run;
    const before = await viewsCounted(database.url);
    const flood = await floodFromOneAddress(server.url, SECONDS, CONNECTIONS);
    console.log(`  one address: ${JSON.stringify(flood)}`);
    const many = await beaconsFromManyAddresses(server.url, SECONDS, CONNECTIONS, ADDRESSES);
    console.log(`  ${ADDRESSES} addresses: ${JSON.stringify(many)}`);
    const counted = (await viewsCounted(database.url)) - before;
    return { ...run, beacons: { flood, many, counted, tallied: await tallied(database.url) } };
  } finally {
    await server?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The machine's load as each part starts: on a busy machine the times say more about the machine than the code.
const load = () => `${loadavg()[0]?.toFixed(1)}`;
const loads = [load()];
const main = await measure(MAIN, true);
loads.push(load());
const large = await measure(LARGE, false);
loads.push(load());

const { table, verdict, failures } = visitsTable(main, large, { budgetMs: BUDGET_MS, connections: CONNECTIONS });
console.log(`\n${table}\n\n${verdict}`);
// A smoke check's figures are not the table's.
if (!SMALL) {
  writeSection(
    "visits",
    [
      "## Visits (`npm run bench -- visits`)",
      "",
      `Measured ${new Date().toISOString().slice(0, 10)} on the ${availableParallelism()} shared cores of the project machine (load average`,
      `${loads.join(", then ")} as the parts began and ended), PostgreSQL 15 on`,
      "127.0.0.1:5432, `npm start`'s server with `DATABASE_URL` and Netlify's rate limits on (the visit function's edge",
      `limit: 600 a minute per client address). Beacons: \`POST /api/visit\` as the pages' script sends it (text/plain`,
      `JSON, a distinct browser user agent each), ${SECONDS} s each way: from one address with autocannon (past 600 in`,
      "the minute the edge answers 429 without running the function), then from 250 loopback addresses (127.0.1.x),",
      "each under the limit, as many visitors arrive; “taken” are the 204s, each checked counted in the rollups.",
      "Rollups filled by SQL as the visit store writes them (bench/lib/visits-fill.ts: half the visitors direct, a",
      "fifth from five big sites, 15% by 210 campaign combinations, 10% from a tail of 500 small sites, 5% by share",
      "links; 6 pages); the marks are today's and yesterday's only (older ones are deleted with their salt). Bytes on",
      "disk: `pg_total_relation_size` after `VACUUM ANALYZE` (heap, the unique key's index, TOAST). The tally",
      "(migration 0028: views and visitors by day and by month × source field × value, kept by the count statement)",
      "is made from the filled rollups by the migration's own `visit_tally_refill()`; the console reads only it. “SQL",
      "alone”: the visits' reads the overview and funnel make, from one client, median of 5 after one unmeasured; the",
      "count statement alone is the beacon path's one write, timed apart from HTTP and the function.",
      "",
      table,
      "",
      verdict,
    ].join("\n"),
  );
}
if (failures.length > 0) process.exitCode = 1;
