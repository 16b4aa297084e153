import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Db } from "./db";
import { acquireDirLock } from "./lock";

/**
 * The embedded Postgres (PGlite) in `dataDir/pg`, owned by this process through `dataDir/owner.lock`.
 * The first open of a new folder runs initdb (seconds); later opens take well under one.
 */
export async function openPgliteDb(dataDir: string): Promise<Db> {
  const release = acquireDirLock(dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create(join(dataDir, "pg"));
  } catch (error) {
    release();
    throw error;
  }
  return {
    kind: "pglite",
    async query<Row extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      return (await pg.query<Row>(text, params)).rows;
    },
    async close() {
      await pg.close();
      release();
    },
  };
}
