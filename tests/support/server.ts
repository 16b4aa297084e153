import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free loopback port (taken, then released). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface RunningServer {
  url: string;
  pid: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `scripts/serve.ts` (the `npm start` server, without the build) with its own port and database. */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = join(mkdtempSync(join(tmpdir(), "e2e-server-")), "data"),
): Promise<RunningServer> {
  const port = await freePort();
  // One process (node with tsx's loader), so a signal reaches the server itself.
  const child: ChildProcess = spawn("node_modules/.bin/node", ["--import", "tsx", "scripts/serve.ts"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, RATE_LIMIT_MAX: "100000", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const check = () => {
      // Ready when it serves and its database is open (a new embedded one runs initdb first).
      if (output.includes("Serving ") && output.includes("Waitlist database:")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://localhost:${port}`,
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
