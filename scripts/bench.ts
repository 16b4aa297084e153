/**
 * `npm run bench [-- <name> [options]]`: the benchmarks, opt-in. What only they use (Lighthouse, chrome-launcher,
 * autocannon) lives in bench/package.json, outside the project's `npm install`; the first run installs it there
 * (`npm ci --prefix bench`), type-checks the benchmarks, then runs the one named, or every one in turn. Each writes
 * its table to docs/performance.md. Those that need PostgreSQL use the one at TEST_POSTGRES_URL (127.0.0.1:5432).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

// visits, scale and wave-matching last: minutes each (a million rows filled by SQL); scale exits 1 while a figure is
// over budget, which must not keep the others from running.
const ALL = [
  "lighthouse",
  "api",
  "functions",
  "pow",
  "startup",
  "invite",
  "updates",
  "webhooks",
  "console",
  "export",
  "tap",
  "reputation",
  "background",
  "import",
  "visits",
  "scale",
  "wave-matching",
];
const [name, ...args] = process.argv.slice(2);
const known = readdirSync("bench")
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.replace(/\.ts$/, ""));

if (name !== undefined && !known.includes(name)) {
  console.error(`bench: no benchmark "${name}"; there are: ${known.join(", ")}`);
  process.exit(2);
}

const run = (command: string, commandArgs: string[]) => {
  const result = spawnSync(command, commandArgs, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync("bench/node_modules")) {
  console.log("bench: installing what only the benchmarks use (bench/package.json)…");
  run("npm", ["ci", "--prefix", "bench", "--no-audit", "--no-fund"]);
}
run("node_modules/.bin/tsc", ["-p", "bench"]);
for (const benchmark of name ? [name] : ALL) {
  console.log(`\n── bench ${benchmark} ──`);
  run("node_modules/.bin/tsx", [`bench/${benchmark}.ts`, ...(name ? args : [])]);
}
