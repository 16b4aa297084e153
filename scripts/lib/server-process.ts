import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The V8 flags `npm run serve` starts the server with, read from that script in package.json so the tests and
 * benches run the server as people do. Why small semi-spaces: Node sizes the young generation by the machine's
 * memory, and what a download makes (rows from the driver, each batch's text, its bytes) then survives scavenges
 * long enough to push the old space up before a full collection, so the process grew far past the heap it used
 * (figures in docs/performance.md, "Scale"). No cap on the old space: a cap collects so often a download slows
 * threefold, and turns a large answer into a crash. Flags on the command line, not a respawn inside serve.ts: one
 * process, so a signal (even SIGKILL) reaches the server itself.
 */
export const SERVER_NODE_FLAGS: string[] = (JSON.parse(readFileSync("package.json", "utf8")).scripts.serve as string)
  .split(/\s+/)
  .filter((word) => word.startsWith("--max-"));

export interface RunningServer {
  url: string;
  pid: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `scripts/serve.ts` (the `npm start` server, without the build) with its own database, on a port the
 * OS picks (PORT=0: no port is chosen and released first, so none can be taken in between). Resolves once it
 * serves and its database is open, with the URL it printed. `cwd`: the tree it serves (another copy of the site,
 * built: tests/support/questions-site.ts), by default this one.
 */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = join(mkdtempSync(join(tmpdir(), "e2e-server-")), "data"),
  nodeFlags: string[] = [],
  cwd?: string,
): Promise<RunningServer> {
  // One process (node with tsx's loader), so a signal reaches the server itself.
  const child: ChildProcess = spawn(
    "node_modules/.bin/node",
    [...SERVER_NODE_FLAGS, ...nodeFlags, "--import", "tsx", "scripts/serve.ts"],
    {
      env: {
        ...process.env,
        PORT: "0",
        DATA_DIR: dataDir,
        RATE_LIMIT_MAX: "100000",
        NETLIFY_RATE_LIMIT: "off",
        // No minute tick touching the outbox mid-test: a test that wants the schedules passes "on".
        NETLIFY_SCHEDULES: "off",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      ...(cwd ? { cwd } : {}),
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const check = () => {
      // Ready when it serves and its database is open (a new embedded one runs initdb first).
      const serving = /Serving \S+ at (http:\/\/\S+)/.exec(output);
      if (serving?.[1] && output.includes("Waitlist database:")) {
        clearTimeout(timer);
        resolve(serving[1]);
      }
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    dataDir,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
