/**
 * `npm run bench -- functions`: the functions as Netlify deploys them (zipped by @netlify/zip-it-and-ship-it),
 * unpacked outside the project, then, in 5 fresh Node processes each, the time to import the waitlist
 * handler (a cold start's import) and, with PostgreSQL on 127.0.0.1:5432, the time from a cold import to
 * the first 201; and what the waitlist zip is made of, compressed, by package. Medians to docs/performance.md.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { bundleFunctions, unpackFunction } from "../scripts/lib/bundle-functions";
import { writeSection } from "../scripts/lib/perf-doc";

const RUNS = 5;
// The machine's load as the run starts: a cold start timed on a busy machine says more about the machine.
const load = `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`;
const work = mkdtempSync(join(tmpdir(), "bench-functions-"));
const built = await bundleFunctions(join(work, "zips"));
const zip = built.find((fn) => fn.name === "waitlist");
if (!zip) throw new Error("no waitlist function was built");
const entry = pathToFileURL(unpackFunction(zip.path, "waitlist", join(work, "waitlist"))).href;
/**
 * A zip's compressed bytes by what they belong to: a package (node_modules/<name>, its own nested packages
 * included) or, for the rest, the file. Read from the zip's central directory (no zip64: these are small).
 */
function zipParts(path: string): Array<[string, number]> {
  const zip = readFileSync(path);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const parts = new Map<string, number>();
  let offset = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    const nameLength = zip.readUInt16LE(offset + 28);
    const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    const part = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name)?.[1] ?? name;
    parts.set(part, (parts.get(part) ?? 0) + zip.readUInt32LE(offset + 20));
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return [...parts].sort((a, b) => b[1] - a[1]);
}
const parts = zipParts(zip.path);

const unzipped = Number(execFileSync("du", ["-sb", join(work, "waitlist")], { encoding: "utf8" }).split("\t")[0]);

/** One fresh process: import the handler, optionally sign up once; prints the two times in ms. */
const probe = `
  const t0 = performance.now();
  const { default: handler } = await import(${JSON.stringify(entry)});
  const imported = performance.now() - t0;
  let first = null;
  if (process.env.DATABASE_URL) {
    const res = await handler(new Request("http://localhost/api/waitlist", { method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "cold" + process.pid + "@example.com", termsAccepted: true }) }),
      { ip: "192.0.2.1", deploy: { context: "production" } });
    if (res.status !== 201) throw new Error("status " + res.status);
    first = performance.now() - t0;
  }
  console.log(JSON.stringify({ imported, first }));
  process.exit(0);
`;
const node = "node_modules/.bin/node";
const run = (env: Record<string, string>) =>
  JSON.parse(
    execFileSync(node, ["--input-type=module", "-e", probe], { env: { ...process.env, ...env }, encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1) ?? "{}",
  ) as { imported: number; first: number | null };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const imports = Array.from({ length: RUNS }, () => run({ DATABASE_URL: "" }).imported);

let firstSignUp: number | null = null;
const admin = "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `bench_functions_${process.pid}`;
try {
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  execFileSync(node, ["--import", "tsx", "scripts/migrate.ts"], { env: { ...process.env, DATABASE_URL: url } });
  firstSignUp = median(
    Array.from({ length: RUNS }, () => run({ DATABASE_URL: url, RATE_LIMIT_MAX: "1000" }).first ?? 0),
  );
  const drop = new pg.Client({ connectionString: admin });
  await drop.connect();
  await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await drop.end();
} catch (error) {
  console.warn(`PostgreSQL not used (${(error as Error).message}); cold start to first sign-up not measured.`);
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const lines = [
  "| measure | value |",
  "| --- | ---: |",
  ...built.map((fn) => `| ${fn.name}.zip | ${kb(statSync(fn.path).size)} |`),
  `| waitlist unzipped | ${kb(unzipped)} |`,
  `| import of the bundled handler, fresh process (median of ${RUNS}; goal ≤ 50 ms) | ${ms(median(imports))} |`,
  ...(firstSignUp === null
    ? []
    : [
        `| fresh process to first 201 over PostgreSQL TCP (import + drivers + zod + connect + insert) | ${ms(firstSignUp)} |`,
      ]),
];
const largest = parts
  .slice(0, 8)
  .map(([part, bytes]) => `${part} ${kb(bytes)}`)
  .join(", ");
console.log(lines.join("\n"));
console.log(`waitlist.zip, compressed, by part: ${largest}`);
writeSection(
  "functions",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- functions\` (Node ${process.versions.node}, ${load}, ` +
    `runs: ${imports.map((value) => value.toFixed(1)).join(", ")} ms).\n\n${lines.join("\n")}\n\n` +
    `waitlist.zip, compressed, its largest parts: ${largest}.`,
);
