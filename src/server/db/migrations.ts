/**
 * The schema is Netlify Database's migrations folder, applied the platform's way everywhere: Netlify applies
 * it at every deploy, `netlify dev` to its local database, and this module (with the platform's own
 * `applyMigrations` from @netlify/database-dev) to the embedded database and, via `npm run db:migrate`, to any
 * DATABASE_URL. All track applied files in `netlify.migrations`, so a database migrated either way agrees.
 */
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { applyMigrations, type SQLExecutor } from "@netlify/database-dev";
import type pg from "pg";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../../netlify/database/migrations", import.meta.url));

/** Applies every migration not yet recorded in netlify.migrations; returns the names applied now. */
export function migrate(db: SQLExecutor, dir = MIGRATIONS_DIR): Promise<string[]> {
  return applyMigrations(db, dir);
}

/** One node-postgres connection as the executor `applyMigrations` expects (a real transaction per file). */
export function pgExecutor(client: pg.Client | pg.PoolClient): SQLExecutor {
  const executor: SQLExecutor = {
    exec: (sql) => client.query(sql),
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
    async transaction(fn) {
      await client.query("BEGIN");
      try {
        const result = await fn(executor);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
  };
  return executor;
}

/**
 * The migrations in `dir` not in `applied`, by name, as Netlify's `applyMigrations` names them: a `<digits>_<slug>.sql`
 * file or a `<digits>_<slug>/` folder (its migration.sql). @netlify/database-dev does not export its own listing.
 */
export async function pendingMigrations(applied: readonly string[], dir = MIGRATIONS_DIR): Promise<string[]> {
  const done = new Set(applied);
  const names = (await readdir(dir, { withFileTypes: true }))
    .map((entry) => (entry.isDirectory() ? entry.name : entry.name.endsWith(".sql") ? entry.name.slice(0, -4) : ""))
    .filter((name) => /^\d+_.+$/.test(name));
  return names.sort((a, b) => a.localeCompare(b)).filter((name) => !done.has(name));
}
