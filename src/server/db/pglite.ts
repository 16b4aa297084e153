import { chmodSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { acquireDirLock } from "./lock";
import { migrate } from "./migrations";
import type { Db } from "./types";

export class DataDirGoneError extends Error {
  override name = "DataDirGoneError";
}

/** Files others could read (sign-ups are personal data): made owner-only, folders 0700, files 0600. */
function makePrivate(path: string): void {
  const stat = statSync(path);
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.isDirectory() ? 0o700 : 0o600);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makePrivate(join(path, entry));
}

/**
 * PGlite is 9 MB of WebAssembly. V8 first compiles it with its baseline compiler (Liftoff), then recompiles the
 * functions that ran most with its optimising one (TurboFan) in the background, and a process waits for that work
 * to end before it exits. Opening a database runs enough of Postgres to start that recompilation: about 2 CPU-s
 * on this project's 2-core machine, for queries that take milliseconds either way. So the processes that open
 * the embedded database keep the baseline code: `npm run waitlist count` 3.4 → 1.7 s (4.1 → 2.1 CPU-s), and 2,000
 * queries after the open ran faster too (1.1 → 0.6 s), the recompilation no longer competing for the cores.
 * Only WebAssembly compiled after this call is affected, and only this process: no deployed function opens
 * PGlite. Called before every open; the first one counts.
 */
function keepBaselineWasm(): void {
  setFlagsFromString("--no-wasm-dynamic-tiering --no-wasm-tier-up");
}

/**
 * The embedded Postgres (PGlite) in `dataDir/pg`, owned by this process through `dataDir/owner.lock`, with
 * the migrations applied, readable by its owner only. The first open of a new folder runs initdb (seconds);
 * later opens take well under one. Every query checks that the folder it opened is still the one at
 * `dataDir/pg` (not deleted, not replaced): otherwise it fails, so no sign-up is acknowledged into a folder
 * nobody will read. Only local processes (npm start, astro dev, the CLI, tests) open it: no deployed
 * function imports it.
 */
export async function openPgliteDb(dataDir: string): Promise<Db> {
  // This process keeps the list: whatever it creates from now on is its user's alone.
  process.umask(0o077);
  keepBaselineWasm();
  const release = acquireDirLock(dataDir);
  const folder = join(dataDir, "pg");
  let pg: PGlite | undefined;
  try {
    pg = await PGlite.create(folder);
    await migrate(pg);
    makePrivate(dataDir);
  } catch (error) {
    await pg?.close().catch(() => {});
    release();
    throw error;
  }
  const db = pg;
  const opened = statSync(folder);
  const assertSameFolder = () => {
    let now: ReturnType<typeof statSync> | undefined;
    try {
      now = statSync(folder);
    } catch {
      // Reported below.
    }
    if (!now || now.ino !== opened.ino || now.dev !== opened.dev) {
      throw new DataDirGoneError(`The embedded database folder ${folder} was deleted or replaced while in use.`);
    }
  };
  return {
    kind: "pglite",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      assertSameFolder();
      const rows = (await db.query<Row>(text, params)).rows;
      assertSameFolder();
      return rows;
    },
    async close() {
      await db.close();
      release();
    },
  };
}
