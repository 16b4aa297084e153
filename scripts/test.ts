/**
 * `npm test`: every check and suite, fast ones first, stopping at the first failure. Steps in one stage run side
 * by side, each on its own files, ports and databases; a stage starts when the one before it has passed. Only
 * the steps that leave a core idle share a stage (astro check, the platform tests and the budgets wait on
 * processes and I/O much of their time); the browser suites and the slow suites keep the
 * machine to themselves, because their timings (intent ≤ 100 ms, a SIGKILL mid-write) are what they test.
 * The output of a step that shares its stage is printed when it ends, whole, so steps never interleave.
 */
import { spawn } from "node:child_process";
import { cpus } from "node:os";

const STAGES: string[][] = [
  ["build", "lint"],
  ["check", "check:html", "test:unit"],
  ["test:platform", "budgets"],
  ["test:e2e"],
  ["test:slow:node"],
  ["test:slow:browser"],
];

interface Result {
  step: string;
  code: number;
  seconds: number;
  output: string;
}

const running = new Set<ReturnType<typeof spawn>>();

function run(step: string, alone: boolean): Promise<Result> {
  const started = performance.now();
  // A process group of its own, so stopping a step stops what it started (servers, browsers, workers).
  const child = spawn("npm", ["run", "--silent", step], {
    stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      running.delete(child);
      // null when a signal ended the step: that is a failure too.
      resolve({ step, code: code ?? 1, seconds: (performance.now() - started) / 1000, output });
    });
  });
}

function stopAll() {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

process.on("SIGINT", () => {
  stopAll();
  process.exit(130);
});

/** CPU seconds the whole machine has spent so far (all cores, all processes): what a stage costs. */
const cpuSeconds = () => cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0) / 1000;

const startedAll = performance.now();
for (const stage of STAGES) {
  const alone = stage.length === 1;
  const [wall, cpu] = [performance.now(), cpuSeconds()];
  console.log(`\n▶ ${stage.join(" + ")}`);
  const failed = await new Promise<Result | null>((resolve) => {
    let left = stage.length;
    for (const step of stage) {
      void run(step, alone).then((result) => {
        if (!alone) process.stdout.write(`\n── ${step} ──\n${result.output}`);
        console.log(`${result.code === 0 ? "✓" : "✗"} ${step} (${result.seconds.toFixed(1)} s)`);
        if (result.code !== 0) {
          stopAll();
          resolve(result);
        } else if (--left === 0) resolve(null);
      });
    }
  });
  if (failed) {
    console.error(`\nnpm test failed at ${failed.step}.`);
    process.exit(1);
  }
  const [seconds, used] = [(performance.now() - wall) / 1000, cpuSeconds() - cpu];
  console.log(`  stage: ${seconds.toFixed(1)} s, ${used.toFixed(0)} CPU-s (${(used / seconds).toFixed(1)} cores busy)`);
}
console.log(`\nnpm test passed in ${((performance.now() - startedAll) / 1000).toFixed(0)} s.`);
