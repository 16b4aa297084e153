import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openPgliteDb } from "../../src/server/db/pglite";

declare module "vitest" {
  export interface ProvidedContext {
    /** An embedded database with every migration applied and no rows, made once per run (see migratedDataDir). */
    pgliteTemplate: string;
  }
}

/** Vitest global setup: initdb and the migrations run once here, instead of once in every test file (~2 s each). */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), "pglite-template-"));
  const dir = join(root, "data");
  await (await openPgliteDb(dir)).close();
  project.provide("pgliteTemplate", dir);
  return () => rmSync(root, { recursive: true, force: true });
}
