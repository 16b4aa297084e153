/**
 * The waitlist CLI (`scripts/waitlist.ts`) as the team runs it: a process of its own, on the project's Node
 * (node_modules/.bin/node), with tsx; memory-probe.ts preloaded reports the process's own memory when it exits.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryReport } from "./memory-probe";

export interface CliRun {
  code: number | null;
  /** From the spawn to the process's exit. */
  seconds: number;
  stdout: string;
  stderr: string;
  memory: MemoryReport;
  /** The machine's 1-minute load average, read every second of the run: its mean and highest (2 cores). */
  load: { mean: number; max: number };
}

/** What a bench's environment must not pass on: where the list is, mail and webhooks (each bench sets its own). */
const OWN = [
  "DATABASE_URL",
  "DATABASE_DRIVER",
  "NETLIFY_DB_URL",
  "DATA_DIR",
  "DATA_KEY",
  "DATA_KEY_PREVIOUS",
  "SMTP_URL",
  "MAIL_FROM",
  "MAIL_RATE_PER_SECOND",
  "WEBHOOK_URL",
  "WEBHOOK_SECRET",
  "SERVER_SECRET",
  "RATE_LIMIT_SECRET",
];

/** This process's environment without the variables above, and with `set`. */
export function cliEnv(set: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of OWN) delete env[name];
  return { ...env, ...set };
}

/** Runs `npm run waitlist -- <args>` without npm in between (so the memory is the CLI's own), to its exit. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const folder = mkdtempSync(join(tmpdir(), "bench-cli-"));
  const memoryFile = join(folder, "memory.json");
  const started = performance.now();
  const child = spawn(
    "node_modules/.bin/node",
    ["--import", "tsx", "--import", "./bench/lib/memory-probe.ts", "scripts/waitlist.ts", ...args],
    { env: { ...env, BENCH_MEMORY_FILE: memoryFile }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const loads = [loadavg()[0] ?? 0];
  const loadTimer = setInterval(() => loads.push(loadavg()[0] ?? 0), 1000);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearInterval(loadTimer);
      reject(error);
    });
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      clearInterval(loadTimer);
      const load = { mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) };
      try {
        const memory = JSON.parse(readFileSync(memoryFile, "utf8")) as MemoryReport;
        resolve({ code, seconds, stdout: stdout.trim(), stderr: stderr.trim(), memory, load });
      } catch (error) {
        reject(
          new Error(`waitlist ${args.join(" ")} left no memory report (exit ${code}): ${stderr}`, { cause: error }),
        );
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}

export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

/** The code measured: the commit, and "-dirty" while src/, netlify/ or scripts/ differ from it. */
export function codeState(): string {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--", "src", "netlify", "scripts") ? "-dirty" : ""}`;
  } catch {
    return "unknown (no git)";
  }
}
