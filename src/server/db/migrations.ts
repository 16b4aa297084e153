/**
 * The schema is Netlify Database's migrations folder, applied the platform's way everywhere: Netlify applies
 * it at every deploy, `netlify dev` to its local database, and this module (with the platform's own
 * `applyMigrations` from @netlify/database-dev) to the embedded database and, via `npm run db:migrate`, to any
 * DATABASE_URL. All track applied files in `netlify.migrations`, so a database migrated either way agrees.
 */
import { applyMigrations, type SQLExecutor } from "@netlify/database-dev";
import type pg from "pg";

import { MIGRATIONS_DIR } from "./migration-files";

export { MIGRATIONS_DIR, pendingMigrations } from "./migration-files";

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
