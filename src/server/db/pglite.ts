import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { acquireDirLock } from "./lock";
import { migrate } from "./migrations";
import type { Db } from "./types";

/**
 * The embedded Postgres (PGlite) in `dataDir/pg`, owned by this process through `dataDir/owner.lock`, with
 * the migrations applied. The first open of a new folder runs initdb (seconds); later opens take well under
 * one. Only local processes (npm start, astro dev, the CLI, tests) open it: no deployed function imports it.
 */
export async function openPgliteDb(dataDir: string): Promise<Db> {
  const release = acquireDirLock(dataDir);
  let pg: PGlite | undefined;
  try {
    pg = await PGlite.create(join(dataDir, "pg"));
    await migrate(pg);
  } catch (error) {
    await pg?.close().catch(() => {});
    release();
    throw error;
  }
  const db = pg;
  return {
    kind: "pglite",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await db.query<Row>(text, params)).rows;
    },
    async close() {
      await db.close();
      release();
    },
  };
}
