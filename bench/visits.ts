/**
 * `npm run bench -- visits [--small]`: the cookie-free visit count (issue 51) under load and at size, on throw-away
 * PostgreSQL databases at TEST_POSTGRES_URL (127.0.0.1:5432), served by `npm start`'s server with Netlify's rate
 * limits on (as deployed):
 *
 * 1. 1,000,000 views over 30 days from 200,000 day-visitors, filled by SQL as src/server/visits/store.ts stores them
 *    (bench/lib/visits-fill.ts; with 20,000 sign-ups for the funnel to convert): rows stored, bytes on disk, and the
 *    console's overview and funnel over HTTP; then beacons posted as fast as the machine allows, from one address (a
 *    flood, cut at the edge) and from 250 (many visitors): answers a second, p50, p99, and every view taken counted.
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
import { type BeaconRun, beaconsFromManyAddresses, floodFromOneAddress } from "./lib/beacons";
import { BENCH_TOKEN, type PageTiming, signIn, timePage } from "./lib/console-session";
import { fillSql } from "./lib/scale-measure";
import { marksFillSql, VISITS_SIZE_SQL, visitsFillSql } from "./lib/visits-fill";
import { timeVisitReads, VISIT_READS } from "./lib/visits-reads";

const SMALL = process.argv.includes("--small");
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? (SMALL ? 2 : 8));
const CONNECTIONS = 10;
const ADDRESSES = 250;
const BUDGET_MS = 100;

interface Size {
  name: string;
  views: number;
  visitors: number;
  days: number;
  signUps: number;
}
const MAIN: Size = SMALL
  ? { name: "10k views", views: 10_000, visitors: 2_000, days: 30, signUps: 10_000 }
  : { name: "1M views", views: 1_000_000, visitors: 200_000, days: 30, signUps: 20_000 };
const LARGE: Size = SMALL
  ? { name: "100k views, 10k sign-ups", views: 100_000, visitors: 20_000, days: 180, signUps: 10_000 }
  : { name: "10M views, 1M sign-ups", views: 10_000_000, visitors: 2_000_000, days: 180, signUps: 1_000_000 };

const PAGES: Array<[label: string, path: string, expected: string]> = [
  ["overview, 30 days, funnel of 30 days (`/admin`)", "/admin", "How each source converts"],
  ["overview, funnel of 90 days (`?funnel=90`)", "/admin?funnel=90", "How each source converts"],
  ["overview, funnel of all time (`?funnel=all`)", "/admin?funnel=all", "How each source converts"],
  ["funnel CSV, all time (`/admin/funnel.csv?range=all`)", "/admin/funnel.csv?range=all", "all time,"],
];

interface Stored {
  rollup_rows: string;
  seen_rows: string;
  views: string;
  visitors: string;
  rollup_bytes: string;
  seen_bytes: string;
  salt_bytes: string;
}
interface SizeRun {
  size: Size;
  fillSeconds: number;
  stored: Stored;
  pages: Record<string, PageTiming>;
  reads: Record<string, number>;
  beacons?: { flood: BeaconRun; many: BeaconRun; counted: number };
}

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
    const started = performance.now();
    await sql(database.url, [
      "SET work_mem = '256MB'",
      fillSql(size.signUps),
      visitsFillSql(size.views, size.visitors, size.days),
      ...marksFillSql(size.views, size.visitors, size.days),
    ]);
    const fillSeconds = (performance.now() - started) / 1000;
    await sql(database.url, ["VACUUM ANALYZE"]);
    const stored = (await sql(database.url, [VISITS_SIZE_SQL]))[0]?.rows[0] as Stored;
    console.log(`  filled in ${fillSeconds.toFixed(1)} s: ${JSON.stringify(stored)}`);
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
    const pages: Record<string, PageTiming> = {};
    for (const [label, path, expected] of PAGES) {
      pages[label] = await timePage(server.url, cookie, path, expected);
      console.log(`  ${label}: ${pages[label]?.median.toFixed(1)} ms median (${pages[label]?.ok ? "ok" : "WRONG"})`);
    }
    if (!beacons) return { size, fillSeconds, stored, pages, reads };
    const before = await viewsCounted(database.url);
    const flood = await floodFromOneAddress(server.url, SECONDS, CONNECTIONS);
    console.log(`  one address: ${JSON.stringify(flood)}`);
    const many = await beaconsFromManyAddresses(server.url, SECONDS, CONNECTIONS, ADDRESSES);
    console.log(`  ${ADDRESSES} addresses: ${JSON.stringify(many)}`);
    const counted = (await viewsCounted(database.url)) - before;
    return { size, fillSeconds, stored, pages, reads, beacons: { flood, many, counted } };
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

// ── the table ──
const n = (value: number | string) => Number(value).toLocaleString("en");
const mb = (bytes: number | string) => `${(Number(bytes) / 1_000_000).toFixed(1)} MB`;
const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en"));
const failures: string[] = [];
const pageRows = PAGES.map(([label]) => {
  const cells = [main, large].map((run) => {
    const t = run.pages[label];
    if (!t) return "—";
    if (!t.ok) failures.push(`${label} at ${run.size.name}: wrong answer`);
    if (t.median > BUDGET_MS) failures.push(`${label} at ${run.size.name}: median ${ms(t.median)} ms`);
    return `${ms(t.median)} (${ms(t.max)})${t.ok ? "" : " ✗"}`;
  });
  return `| ${label} | ${cells.join(" | ")} |`;
});
const readRows = VISIT_READS.map(
  ([label]) => `| ${label}, SQL alone | ${[main, large].map((run) => ms(run.reads[label] ?? 0)).join(" | ")} |`,
);
const storedRows = [main, large].map(
  ({ size, stored, fillSeconds }) =>
    `| ${size.name} over ${size.days} days | ${n(stored.views)} | ${n(stored.visitors)} | ${n(stored.rollup_rows)} | ` +
    `${mb(stored.rollup_bytes)} | ${n(stored.seen_rows)} | ${mb(stored.seen_bytes)} | ${fillSeconds.toFixed(0)} s |`,
);
const b = main.beacons;
const beaconRow = (label: string, run: BeaconRun) =>
  `| ${label} | ${n(run.rate.toFixed(0))} | ${ms(run.p50)} | ${ms(run.p99)} | ${n(run.taken)} | ${n(run.refused)} | ${n(run.other)} |`;
// autocannon stops counting at its deadline with up to one request per connection still in flight, which the
// server then counts: so between the 204s seen and those plus one per connection.
const taken = (b?.flood.taken ?? 0) + (b?.many.taken ?? 0);
if (b && (b.counted < taken || b.counted > taken + CONNECTIONS)) {
  failures.push(`beacons: ${n(taken)} taken, ${n(b.counted)} views counted`);
}
const table = [
  "| beacons, concurrency 10 | answers/s | p50 ms | p99 ms | 204 (taken) | 429 (edge) | other |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...(b
    ? [beaconRow("one client address (a flood)", b.flood), beaconRow(`${ADDRESSES} client addresses`, b.many)]
    : []),
  "",
  "| filled | views | day-visitors | rollup rows | rollup on disk | marks (2 days) | marks on disk | fill |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...storedRows,
  "",
  `| console page, ms median (max) of 5 | ${main.size.name}, ${n(main.size.signUps)} sign-ups | ${large.size.name} |`,
  "| --- | ---: | ---: |",
  ...pageRows,
  ...readRows,
].join("\n");
const verdict = failures.length
  ? `Over budget or wrong: ${failures.join("; ")}.`
  : `Every page within ${BUDGET_MS} ms median; every beacon taken was counted (${n(b?.counted ?? 0)} views).`;
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
      "disk: `pg_total_relation_size` after `VACUUM ANALYZE` (heap, the unique key's index, TOAST).",
      "",
      table,
      "",
      verdict,
    ].join("\n"),
  );
}
if (failures.length > 0) process.exitCode = 1;
