/**
 * Embedded-database folders for tests, shared by vitest (pglite-template.setup.ts, helpers.ts) and Playwright
 * (e2e/fixtures.ts), so it imports neither runner. initdb and the migrations run once; each test gets a copy.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPgliteDb } from "../../src/server/db/pglite";

/** A fresh, not yet existing folder for an embedded database (opening it creates it). */
export function tempDataDir(prefix = "waitlist-"): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), "data");
}

/** An empty embedded database with every migration applied, made in a fresh folder and closed. */
export async function makeEmptyDatabase(prefix: string): Promise<string> {
  const dir = tempDataDir(prefix);
  await (await openPgliteDb(dir)).close();
  return dir;
}

/** A copy of the (closed) database in `template`, in a fresh folder. */
export function copyDatabase(template: string, prefix: string): string {
  const dir = tempDataDir(prefix);
  cpSync(template, dir, { recursive: true });
  return dir;
}
