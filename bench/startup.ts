/**
 * `npm run bench -- startup`: time from `npm start` to the first served page, on a database folder that has
 * never been used (PGlite's initdb) and on a second start; and when the waitlist database is ready.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSection } from "../scripts/lib/perf-doc";

async function timeStart(dataDir: string) {
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    env: { ...process.env, PORT: "0", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let dbReady = Number.NaN;
  child.stdout.on("data", (chunk) => {
    output += chunk;
    if (Number.isNaN(dbReady) && output.includes("Waitlist database:")) dbReady = performance.now() - started;
  });
  child.stderr.on("data", (chunk) => (output += chunk));
  let firstPage = Number.NaN;
  while (Number.isNaN(firstPage) && performance.now() - started < 180_000) {
    try {
      const url = /Serving \S+ at (http:\/\/\S+)/.exec(output)?.[1];
      if (url && (await fetch(`${url}/`)).status === 200) firstPage = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  while (Number.isNaN(dbReady) && performance.now() - started < 180_000) await new Promise((r) => setTimeout(r, 25));
  process.kill(-(child.pid ?? 0), "SIGTERM");
  await new Promise((resolve) => child.on("exit", resolve));
  const build = Number(
    output
      .match(/(\d+) page\(s\) built in ([\d.]+)(m?s)/)
      ?.slice(2, 4)
      .join("")
      ?.replace(/ms$/, "e-3")
      .replace(/s$/, "") ?? Number.NaN,
  );
  return { firstPage, dbReady, buildSeconds: build };
}

const dataDir = join(mkdtempSync(join(tmpdir(), "startup-")), "data");
const first = await timeStart(dataDir);
const second = await timeStart(dataDir);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const table = [
  "| start | first page served | waitlist database ready | of which `astro build` |",
  "| --- | ---: | ---: | ---: |",
  `| first (new database folder: initdb) | ${s(first.firstPage)} | ${s(first.dbReady)} | ${first.buildSeconds.toFixed(1)} s |`,
  `| second (same folder) | ${s(second.firstPage)} | ${s(second.dbReady)} | ${second.buildSeconds.toFixed(1)} s |`,
].join("\n");
console.log(table);
writeSection(
  "startup",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- startup\` (\`npm start\` = build + serve; ` +
    "node_modules already installed). The server answers pages while the embedded database opens; a sign-up " +
    `that arrives first waits for it.\n\n${table}`,
);
