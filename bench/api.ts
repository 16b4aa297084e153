/**
 * `npm run bench -- api`: the local server (npm start's, on a fresh embedded database) under autocannon with
 * valid, distinct sign-ups at concurrency 1, 10 and 50; the raw insert rate of the same database with no HTTP;
 * their ratio; and a CPU profile of the server under load. Writes the table to docs/performance.md.
 * Longer than 150 lines: two runs (embedded, PostgreSQL) of one benchmark share the load generator.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { summariseProfiles } from "../scripts/lib/cpu-profile";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { createStore } from "../src/server/app/store";
import { openPgliteDb } from "../src/server/db/pglite";
import { SIGNUP_SQL } from "../src/server/signup/store";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 8);
const fresh = (name: string) => join(mkdtempSync(join(tmpdir(), `bench-${name}-`)), "data");

async function rawInsertRate(): Promise<number> {
  const db = await openPgliteDb(fresh("raw"));
  const store = createStore(db);
  const until = performance.now() + SECONDS * 1000;
  let n = 0;
  while (performance.now() < until) {
    await store.add({ name: "Raw Insert", email: `raw${n}@example.com`, message: "Why: benchmark" });
    n++;
  }
  await store.close();
  return n / SECONDS;
}

let counter = 0;
async function load(url: string, connections: number) {
  const result = await autocannon({
    url: `${url}/api/waitlist`,
    method: "POST",
    connections,
    duration: SECONDS,
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: "Bench Mark",
            email: `bench${process.pid}.${counter++}@example.com`,
            why: "benchmark",
            termsAccepted: true,
          }),
        }),
      },
    ],
  });
  return {
    connections,
    rate: result["2xx"] / SECONDS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/**
 * `npm run bench -- api --postgres`: the same HTTP path at concurrency 10 with DATABASE_URL on the
 * PostgreSQL at 127.0.0.1:5432 (node-postgres), against the raw insert over the same driver and pool size
 * (10 clients inserting as fast as they can), in the same run.
 */
async function postgresRun() {
  const admin = "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `bench_api_${process.pid}`;
  const sql = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await sql(`CREATE DATABASE ${name}`);
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  try {
    execFileSync("node_modules/.bin/node", ["--import", "tsx", "scripts/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: url },
    });
    const profileDir = mkdtempSync(join(tmpdir(), "bench-profile-pg-"));
    const server = await startServer(
      { RATE_LIMIT_MAX: "100000000", DATABASE_URL: url, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` },
      fresh("pg-http"),
    );
    await load(server.url, 10); // warm-up
    const http = await load(server.url, 10);
    await server.stop();

    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const until = performance.now() + SECONDS * 1000;
    let n = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (performance.now() < until) {
          const i = n++;
          await pool.query(SIGNUP_SQL.insert, ["Raw Insert", `raw${i}@example.com`, "Why: benchmark"]);
        }
      }),
    );
    await pool.end();
    const raw = n / SECONDS;
    const table = [
      "| PostgreSQL 15 over TCP, concurrency 10 | sign-ups/s | p50 ms | p99 ms | errors |",
      "| --- | ---: | ---: | ---: | ---: |",
      `| HTTP path (npm start, DATABASE_URL) | ${http.rate.toFixed(0)} | ${http.p50} | ${http.p99} | ${http.errors} |`,
      `| raw insert, same driver, 10 clients | ${raw.toFixed(0)} | | | |`,
    ].join("\n");
    const summary = `HTTP path = ${((http.rate / raw) * 100).toFixed(0)} % of the raw insert over the same driver (goal ≥ 80 %).`;
    const profile = summariseProfiles(profileDir)
      .map((entry) => `| ${entry.where} | ${(entry.share * 100).toFixed(1)} % |`)
      .join("\n");
    console.log(`${table}\n\n${summary}\n\n${profile}`);
    writeSection(
      "api-postgres",
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- api --postgres\` (${SECONDS} s per row, ` +
        `one Node server process and the load generator on the same 2 cores as PostgreSQL).\n\n${table}\n\n${summary}`,
    );
  } finally {
    await sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (process.argv.includes("--postgres")) await postgresRun();
else await embeddedRun();

async function embeddedRun() {
  const profileDir = mkdtempSync(join(tmpdir(), "bench-profile-"));
  const server = await startServer(
    { RATE_LIMIT_MAX: "100000000", NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` },
    fresh("http"),
  );
  await load(server.url, 10); // warm-up: JIT, first pages of the table
  const rows = [];
  for (const connections of [1, 10, 50]) rows.push(await load(server.url, connections));
  await server.stop();
  const raw = await rawInsertRate();
  const best = Math.max(...rows.map((row) => row.rate));
  const at10 = rows.find((row) => row.connections === 10);

  const table = [
    "| concurrency | sign-ups/s | p50 ms | p99 ms | errors |",
    "| ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.connections} | ${r.rate.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`),
    `| raw insert, no HTTP | ${raw.toFixed(0)} | | | |`,
  ].join("\n");
  const profile = summariseProfiles(profileDir)
    .map((entry) => `| ${entry.where} | ${(entry.share * 100).toFixed(1)} % |`)
    .join("\n");
  const ratio = best / raw;
  const summary =
    `HTTP path at its best: ${best.toFixed(0)} sign-ups/s = ${(ratio * 100).toFixed(0)} % of the raw insert rate ` +
    `(goal ≥ 80 %); p99 at concurrency 10: ${at10?.p99} ms (goal < 50 ms).`;

  console.log(`${table}\n\n${summary}\n\nServer CPU profile (self time):\n${profile}`);
  writeSection(
    "api",
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- api\` (${SECONDS} s per row, ` +
      `fresh embedded database, one Node process, 2 cores).\n\n${table}\n\n${summary}\n\n` +
      `Where the server's time goes under load (CPU profile, self time):\n\n| where | share |\n| --- | ---: |\n${profile}`,
  );
}
