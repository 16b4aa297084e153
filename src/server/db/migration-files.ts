/**
 * The migrations folder and what of it a database has not applied, apart from migrations.ts: reading the folder
 * needs nothing of @netlify/database-dev, whose embedded Postgres (PGlite, 14 MB) would otherwise ship with every
 * function that only asks what is pending (the console's setup check).
 */
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../../netlify/database/migrations", import.meta.url));

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
