/**
 * One `waitlist import FILE --yes` for bench/import.ts, as typed (a new process with tsx), timed whole with its
 * peak RSS and CPU time (`/usr/bin/time`: maximum RSS, user + system) and the CPU time of the PostgreSQL backends
 * serving it, read from /proc while it runs (the server is on this machine, else that figure is null).
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import pg from "pg";
import { POSTGRES_ADMIN_URL } from "../../tests/support/postgres";

export interface Run {
  seconds: number;
  peakMb: number;
  /** CPU seconds (user + system) of the import's own process, and of the database backends serving it. */
  cpu: number;
  databaseCpu: number | null;
  /** The 1-minute load average over the run, its mean (read every second). */
  load: number;
  output: string;
}

const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/**
 * The CPU seconds each backend of database `name` has used so far, by pid, read from /proc/<pid>/stat (utime and
 * stime); false when a backend is not on this machine.
 */
async function backendCpu(admin: pg.Client, name: string, seen: Map<number, number>): Promise<boolean> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
    [name],
  );
  for (const { pid } of rows) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return false;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    seen.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS);
  }
  return true;
}

/**
 * `waitlist import FILE --yes` into the database at `url`, timed whole, with the process's peak RSS and CPU, and
 * its backends' CPU (sampled every 100 ms: what a backend used after its last sample, when the import closes its
 * connections, is not counted).
 */
export async function importCommand(url: string, file: string, env: Record<string, string>): Promise<Run> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  const name = new URL(url).pathname.slice(1);
  const started = performance.now();
  const child = spawn(
    "/usr/bin/time",
    ["-f", "peak-rss-kb %M cpu %U %S", "node_modules/.bin/node", "--import", "tsx", "scripts/waitlist.ts"].concat([
      "import",
      file,
      "--yes",
    ]),
    { env: { ...process.env, ...env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let [stdout, stderr] = ["", ""];
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const seen = new Map<number, number>();
  const loads: number[] = [];
  let local = true;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  try {
    for (let tick = 0; !done; tick++) {
      if (tick % 10 === 0) loads.push(loadavg()[0] ?? 0);
      local = (await backendCpu(admin, name, seen)) && local;
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
  } finally {
    await admin.end();
  }
  const code = await exited;
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`import of ${file} exited ${code}:\n${stderr}`);
  const [, peak = "0", user = "0", system = "0"] = /peak-rss-kb (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr) ?? [];
  return {
    seconds,
    peakMb: Number(peak) / 1024,
    cpu: Number(user) + Number(system),
    databaseCpu: local ? [...seen.values()].reduce((sum, each) => sum + each, 0) : null,
    load: loads.reduce((sum, each) => sum + each, 0) / Math.max(1, loads.length),
    output: stdout.trim(),
  };
}
