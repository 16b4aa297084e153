/** Applies schema.sql (idempotent) to the database in DATABASE_URL, or NETLIFY_DB_URL. */
import { getConfig } from "../src/server/config";
import { applySchema, openStore, schemaStatements } from "../src/server/store";

const config = getConfig();
if (!config.databaseUrl) {
  console.error(
    "db:migrate: set DATABASE_URL (or NETLIFY_DB_URL) to the Postgres to migrate. The embedded database needs no migration: it applies schema.sql when it opens.",
  );
  process.exit(1);
}

const store = await openStore(config);
try {
  await applySchema(store.db);
  console.log(
    `db:migrate: applied ${schemaStatements().length} statements from schema.sql; waitlist has ${await store.count()} entries.`,
  );
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
