/**
 * `npm run db:migrate`: applies netlify/database/migrations/ to DATABASE_URL, else NETLIFY_DB_URL, else the
 * embedded database, tracked in netlify.migrations as Netlify Database does at every deploy. Each migration
 * runs in its own transaction: a failure changes nothing and exits 1 with one line naming the cause.
 * It speaks the Postgres protocol (node-postgres) to every URL, Neon's included.
 */
import pg from "pg";
import { ConfigError, getConfig } from "../src/server/config";
import { chooseConnection, describeConnection } from "../src/server/db/connection";
import { migrate, pgExecutor } from "../src/server/db/migrations";
import { openPgliteDb } from "../src/server/db/pglite";
import { explainDbError } from "./lib/db-errors";

const config = getConfig();
for (const problem of config.unreadable) console.error(`db:migrate: ${problem}`);
if (config.unreadable.length > 0) process.exit(1);
let connection: ReturnType<typeof chooseConnection>;
try {
  connection = chooseConnection(config);
} catch (error) {
  console.error(`db:migrate: ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exit(1);
}

try {
  if (connection.kind === "embedded") {
    // Opening the embedded database applies the migrations; report what is there.
    const db = await openPgliteDb(connection.dataDir);
    const rows = await db.query<{ name: string }>("SELECT name FROM netlify.migrations ORDER BY name");
    await db.close();
    console.log(`db:migrate: ${describeConnection(connection)} is at ${rows.at(-1)?.name ?? "nothing"}.`);
  } else {
    const client = new pg.Client({ connectionString: connection.url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      const applied = await migrate(pgExecutor(client));
      const { rows } = await client.query<{ count: number }>("SELECT count(*)::int AS count FROM waitlist");
      console.log(
        `db:migrate: ${describeConnection(connection)}: ${applied.length ? `applied ${applied.join(", ")}` : "already up to date"} (netlify/database/migrations/); waitlist has ${rows[0]?.count ?? 0} entries.`,
      );
    } finally {
      await client.end();
    }
  }
} catch (error) {
  console.error(`db:migrate failed: ${explainDbError(error, connection)}. Nothing was changed.`);
  process.exitCode = 1;
}
