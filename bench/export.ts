/**
 * `npm run bench -- export`: the export of a long list as the team downloads it. 100,000 long rows (name, answers
 * and the combined message: about 2 KB each) in a throw-away PostgreSQL database at TEST_POSTGRES_URL (default
 * 127.0.0.1:5432), served by `npm start`'s server; one export, then three at once, each walked part by part along
 * `Link: rel="next"` as a script does (bench/lib/scale-measure.ts httpDownload, the walker the scale bench uses).
 * Reports the parts, the largest and slowest response, rows, wall time, and the server's peak resident memory above
 * its idle, sampled from /proc; to docs/performance.md.
 */
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { createMigratedDatabase } from "../tests/support/postgres";
import { type DownloadReport, httpDownload, treeRssMb } from "./lib/scale-measure";

const ROWS = 100_000; // plus the warm-up sign-up
const TOKEN = "bench-export-token-0123456789abcdef0123456789";
// A throw-away database with the migrations applied, as the tests make them.
const database = await createMigratedDatabase("bench_export");

try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `INSERT INTO waitlist (name, email, organization, why, connect, message, status, created_at)
     SELECT n, 'person' || i || '@example.com', o, w, c,
       'Organization: ' || o || E'\\n\\nWhy: ' || w || E'\\n\\nConnect: ' || c, 'confirmed',
       now() - make_interval(secs => ${ROWS} - i)
     FROM generate_series(1, ${ROWS}) AS i,
       LATERAL (SELECT 'Person ' || repeat('n', 60) || i AS n, repeat('organisation ', 8) AS o,
         repeat('I want to keep what I read. ', 18) AS w, repeat('@someone ', 30) AS c) AS t`,
  );
  await client.end();

  /** One export, then three at once, from a server of its own (started with `nodeFlags`). */
  const measure = async (nodeFlags: string[] = []) => {
    const server = await startServer({ DATABASE_URL: database.url, WAITLIST_ADMIN_TOKEN: TOKEN }, undefined, nodeFlags);
    try {
      // Idle means warm: one sign-up has loaded the driver and the request path, as on a server in use.
      const warm = await fetch(`${server.url}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "warm-up@example.com", termsAccepted: true }),
      });
      if (warm.status !== 201) throw new Error(`warm-up sign-up answered ${warm.status}`);
      const idle = treeRssMb(server.pid);
      // Both from the same idle: the three are charged for what the one left resident (an over-statement, never an
      // under-), as the scale bench charges its second download.
      const one = await httpDownload(server.url, server.pid, idle, TOKEN);
      const started = performance.now();
      const three = await Promise.all([1, 2, 3].map(() => httpDownload(server.url, server.pid, idle, TOKEN)));
      const threeSeconds = (performance.now() - started) / 1000;
      return { idle, one, three, threeSeconds };
    } finally {
      await server.stop();
    }
  };
  const plain = await measure();
  // The same with the V8 heap capped: were the list held in memory, three exports of 185 MB could not fit.
  const HEAP_MB = 48;
  const capped = await measure([`--max-old-space-size=${HEAP_MB}`]);

  const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const sizes = (d: DownloadReport) => `${mb(d.largestBytes)} (${mb(d.largestDecodedBytes)} decoded)`;
  const lines = (label: string, m: typeof plain) => {
    const { one, three } = m;
    const all = (of: (d: DownloadReport) => number) => Math.max(...three.map(of));
    const statuses = [...new Set(three.flatMap((d) => d.statuses))].join(", ");
    const threeLargest = three.reduce((a, b) => (b.largestBytes > a.largestBytes ? b : a));
    return [
      `| one export, ${label} | ${[...new Set(one.statuses)].join(", ")} | ${one.responses} | ${sizes(one)} | ${s(one.slowestMs)} | ${one.rows.toLocaleString("en")} | ${s(one.totalMs)} | ${one.peakMb.toFixed(0)} MB |`,
      `| three at once, ${label} | ${statuses} | ${three.map((d) => d.responses).join(", ")} | ${sizes(threeLargest)} | ${s(all((d) => d.slowestMs))} | ${three.map((d) => d.rows.toLocaleString("en")).join(", ")} | ${m.threeSeconds.toFixed(1)} s | ${all((d) => d.peakMb).toFixed(0)} MB |`,
    ];
  };
  const table = [
    "## Export (`npm run bench -- export`)",
    "",
    `${ROWS.toLocaleString("en")} long rows (about 2 KB each: name, the three answers and the combined message) in`,
    "PostgreSQL on 127.0.0.1:5432, exported as CSV through `GET /api/waitlist/export` from `npm start`'s server, as",
    'a script downloads it: gzip accepted, one part a response, each `Link: rel="next"` followed until none;',
    `measured on ${new Date().toISOString().slice(0, 10)}. Sizes are bodies as sent (decoded in brackets); memory is the`,
    "server's resident set (VmRSS of its process tree), sampled every 50 ms, above its idle after one sign-up",
    `(${plain.idle.toFixed(0)} MB), the server run with \`npm run serve\`'s V8 flags (scripts/lib/server-process.ts says`,
    `why); with its heap capped at ${HEAP_MB} MB as well, the same exports run in what they really hold.`,
    "",
    "| | status | parts | largest response | slowest response | rows | wall time | peak memory above idle |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...lines("as `npm run serve` starts", plain),
    ...lines(`heap capped at ${HEAP_MB} MB`, capped),
  ].join("\n");
  console.log(table);
  writeSection("export", table);
  const complete = [plain, capped].every((m) =>
    [m.one, ...m.three].every((d) => d.statuses.every((status) => status === 200) && d.rows === ROWS + 1),
  );
  const peakThree = Math.max(...capped.three.map((d) => d.peakMb));
  if (!complete || peakThree >= 100) process.exitCode = 1;
} finally {
  await database.drop();
}
