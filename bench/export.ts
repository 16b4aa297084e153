/**
 * `npm run bench -- export`: the export of a long list as the team downloads it. 100,000 long rows (name, answers
 * and the combined message: about 2 KB each) in a throw-away PostgreSQL database at TEST_POSTGRES_URL (default
 * 127.0.0.1:5432), served by `npm start`'s server; one export, then three at once. Reports wall time, bytes and
 * rows of each, and the server's peak resident memory above its idle, sampled from /proc; to docs/performance.md.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { createMigratedDatabase } from "../tests/integration/postgres";

const ROWS = 100_000; // plus the warm-up sign-up
const TOKEN = "bench-export-token-0123456789";
// A throw-away database with the migrations applied, as the tests make them.
const database = await createMigratedDatabase("bench_export");

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) / 1024;
};

/** Downloads one export, counting bytes and lines as they arrive (nothing is kept). */
async function download(base: string) {
  const started = performance.now();
  const res = await fetch(`${base}/api/waitlist/export`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body ?? []) {
    bytes += chunk.byteLength;
    for (const byte of chunk as Uint8Array) if (byte === 13) lines++; // CR ends a row only: cells hold bare line breaks
  }
  return { status: res.status, seconds: (performance.now() - started) / 1000, bytes, lines };
}

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
      const idle = rssMb(server.pid);
      let peak = idle;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid));
      }, 25);
      const one = await download(server.url);
      const peakOne = peak - idle;
      const started = performance.now();
      const three = await Promise.all([download(server.url), download(server.url), download(server.url)]);
      const threeSeconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      return { idle, one, peakOne, three, threeSeconds, peakThree: peak - idle };
    } finally {
      await server.stop();
    }
  };
  const plain = await measure();
  // The same with the V8 heap capped: were the list held in memory, three exports of 185 MB could not fit.
  const HEAP_MB = 48;
  const capped = await measure([`--max-old-space-size=${HEAP_MB}`]);

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const rowsOf = (r: { lines: number }) => (r.lines - 1).toLocaleString("en");
  const lines = (label: string, m: typeof plain) => [
    `| one export, ${label} | ${m.one.status} | ${rowsOf(m.one)} | ${mb(m.one.bytes)} | ${m.one.seconds.toFixed(1)} s | ${m.peakOne.toFixed(0)} MB |`,
    `| three at once, ${label} | ${m.three.map((r) => r.status).join(", ")} | ${m.three.map(rowsOf).join(", ")} | ${mb(m.three[0]?.bytes ?? 0)} each | ${m.threeSeconds.toFixed(1)} s | ${m.peakThree.toFixed(0)} MB |`,
  ];
  const table = [
    "## Export (`npm run bench -- export`)",
    "",
    `${ROWS.toLocaleString("en")} long rows (about 2 KB each: name, the three answers and the combined message) in`,
    "PostgreSQL on 127.0.0.1:5432, exported as CSV through `GET /api/waitlist/export` from `npm start`'s server;",
    `measured on ${new Date().toISOString().slice(0, 10)}. Memory is the server's resident set (VmRSS), sampled every`,
    `25 ms, above its idle after one sign-up (${plain.idle.toFixed(0)} MB). Node as it starts lets garbage grow before`,
    `it collects; with its heap capped at ${HEAP_MB} MB the same exports run in what they really hold.`,
    "",
    "| | status | rows | size | wall time | peak memory above idle |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...lines("Node's defaults", plain),
    ...lines(`heap capped at ${HEAP_MB} MB`, capped),
  ].join("\n");
  console.log(table);
  writeSection("export", table);
  const complete = [plain, capped].every((m) =>
    [m.one, ...m.three].every((r) => r.status === 200 && r.lines === ROWS + 2),
  );
  if (!complete || capped.peakThree >= 100) process.exitCode = 1;
} finally {
  await database.drop();
}
