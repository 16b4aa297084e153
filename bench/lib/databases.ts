/**
 * A throw-away list for a bench that runs the CLI against it: a PostgreSQL database at TEST_POSTGRES_URL (default
 * 127.0.0.1:5432) with the migrations applied, as the tests make them, or an embedded one (PGlite) in a folder of
 * its own. The bench reads and writes it between the CLI's runs, never during one: the embedded database has one
 * owner at a time (src/server/db/lock.ts), so each `use` opens it and closes it again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createMigratedDatabase } from "../../tests/support/postgres";

export type Query = <Row extends Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

export interface BenchDatabase {
  /** How the table names it. */
  label: string;
  /** What the CLI needs to open it (DATABASE_URL or DATA_DIR). */
  env: Record<string, string>;
  /** Runs `fn` with the database open (closed again after). */
  use<T>(fn: (query: Query) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

export async function postgresDatabase(prefix: string): Promise<BenchDatabase> {
  const database = await createMigratedDatabase(prefix);
  return {
    label: "PostgreSQL 127.0.0.1:5432",
    env: { DATABASE_URL: database.url },
    async use(fn) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return await fn(async (sql, params) => (await client.query(sql, params)).rows);
      } finally {
        await client.end();
      }
    },
    drop: () => database.drop(),
  };
}

/** The embedded database in a new folder (its first open runs initdb and the migrations: seconds). */
export async function embeddedDatabase(prefix: string): Promise<BenchDatabase> {
  const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const use: BenchDatabase["use"] = async (fn) => {
    const db = await openPgliteDb(folder);
    try {
      return await fn((sql, params) => db.query(sql, params));
    } finally {
      await db.close();
    }
  };
  await use(async () => {});
  return {
    label: "embedded (PGlite)",
    env: { DATA_DIR: folder },
    use,
    drop: async () => rmSync(folder, { recursive: true, force: true }),
  };
}
