import pg from "pg";
import { migrate, pgExecutor } from "../../src/server/db/migrations";

/** The PostgreSQL server CI provides; REQUIRE_POSTGRES=1 makes its absence a failure instead of a skip. */
export const POSTGRES_ADMIN_URL = process.env["TEST_POSTGRES_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const POSTGRES_REQUIRED = process.env["REQUIRE_POSTGRES"] === "1";

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (POSTGRES_REQUIRED) throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is unreachable: ${String(error)}`);
    return false;
  }
}

/** Creates a throw-away database and returns its URL (with a dummy password, which trust auth ignores). */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  url.password ||= "unused";
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await untilUnused(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Waits until no client is connected to `name`, and fails naming who still is. Never `WITH (FORCE)`: it
 * terminated a pooled connection still closing (57P01), an error its pool heard after the test had moved on, in
 * about 1 run in 8 under load. A connection a test left open is that test's fault, said at once; one closing
 * (a stopped child process, a proxy's cut socket) leaves within milliseconds.
 */
async function untilUnused(admin: pg.Client, name: string, waitMs = 10_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await admin.query<{ pid: number; state: string; query: string }>(
      "SELECT pid, state, query FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
      [name],
    );
    if (rows.length === 0) return;
    if (Date.now() > deadline) {
      const who = rows.map((row) => `pid ${row.pid} ${row.state}: ${row.query.slice(0, 80)}`).join("; ");
      throw new Error(`${name} still has ${rows.length} connection(s) open after ${waitMs} ms (${who})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A throw-away database with the migrations applied, as `npm run db:migrate` applies them. */
export async function createMigratedDatabase(prefix: string) {
  const database = await createTestDatabase(prefix);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await migrate(pgExecutor(client));
  } finally {
    await client.end();
  }
  return database;
}
