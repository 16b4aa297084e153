import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { acquireDirLock } from "./lock";
import { migrate } from "./migrations";
import type { Db } from "./types";

export class DataDirGoneError extends Error {
  override name = "DataDirGoneError";
}

/**
 * The Postgres major version the installed PGlite embeds (0.3: Postgres 17), which is the one Netlify's emulator
 * (@netlify/dev) runs too, so the project installs one PGlite. A folder made by another major version cannot be
 * opened by this one: that is said plainly instead of failing deep inside WebAssembly.
 */
const EMBEDDED_MAJOR = "17";

function checkMajorVersion(folder: string): void {
  const file = join(folder, "PG_VERSION");
  if (!existsSync(file)) return;
  const major = readFileSync(file, "utf8").trim();
  if (major !== EMBEDDED_MAJOR) {
    throw new Error(
      `The embedded database in ${folder} was made by Postgres ${major}; this version of the project embeds Postgres ${EMBEDDED_MAJOR}. Export the list with the version that made it (npm run waitlist -- export), then move the folder away to start a new one.`,
    );
  }
}

/** Files others could read (sign-ups are personal data): made owner-only, folders 0700, files 0600. */
function makePrivate(path: string): void {
  const stat = statSync(path);
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.isDirectory() ? 0o700 : 0o600);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makePrivate(join(path, entry));
}

/**
 * PGlite is a large WebAssembly module. V8 first compiles it with its baseline compiler (Liftoff), then recompiles
 * the functions that ran most with its optimising one (TurboFan) in the background, and a process waits for that
 * work to end before it exits. Opening a database runs enough of Postgres to start that recompilation, which costs
 * far more CPU than the short-lived processes that open the embedded database (the CLI, the local server, tests)
 * ever win back; docs/performance.md has the figures. So they keep the baseline code. Only WebAssembly compiled
 * after this call is affected, and only this process: no deployed function opens PGlite. Called before every
 * open; the first one counts.
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
    checkMajorVersion(folder);
    // Loaded at every open: once migration 0008 has built its trigram index, no write works without it.
    pg = await PGlite.create(folder, { extensions: { pg_trgm } });
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
