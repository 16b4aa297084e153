/**
 * schema.sql is the readable whole schema; netlify/database/migrations/ is what every database is built from.
 * Built each way in one embedded Postgres (two schemas), the two must define the same tables, columns, triggers,
 * functions, defaults, constraints and indexes: a migration without its schema.sql line, or the reverse, fails here.
 */
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrate } from "../../../src/server/db/migrations";

const CATALOG = `
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable ||
         ' default=' || coalesce(column_default, '-') || ' identity=' || is_identity AS def
    FROM information_schema.columns WHERE table_schema = $1
  UNION ALL
  SELECT 'index ' || replace(indexdef, $1 || '.', '') FROM pg_indexes WHERE schemaname = $1
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = $1::regnamespace
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal AND c.relnamespace = $1::regnamespace
  UNION ALL
  SELECT 'function ' || proname || ' ' || md5(prosrc) || ' ' || coalesce(array_to_string(proconfig, ' '), '')
    FROM pg_proc WHERE pronamespace = $1::regnamespace
  ORDER BY 1`;

let db: PGlite;
const catalog = async (schema: string) => {
  await db.exec(`SET search_path TO ${schema}`);
  return (await db.query<{ def: string }>(CATALOG, [schema])).rows.map((row) => row.def.replaceAll(`${schema}.`, ""));
};

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec("CREATE SCHEMA from_migrations; CREATE SCHEMA from_schema_sql;");
  await db.exec("SET search_path TO from_migrations");
  await migrate(db);
  await db.exec("SET search_path TO from_schema_sql");
  await db.exec(readFileSync("schema.sql", "utf8"));
}, 60_000);

afterAll(async () => {
  await db?.close();
});

it("schema.sql defines exactly what the migrations build", async () => {
  const fromMigrations = await catalog("from_migrations");
  expect(fromMigrations.length).toBeGreaterThan(5);
  expect(fromMigrations.some((def) => def.includes("waitlist_email_lower_key"))).toBe(true);
  expect(await catalog("from_schema_sql")).toEqual(fromMigrations);
});
