import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { TestProject } from "vitest/node";
import { makeEmptyDatabase } from "./embedded-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** An embedded database with every migration applied and no rows, made once per run (see migratedDataDir). */
    pgliteTemplate: string;
  }
}

/** Vitest global setup: initdb and the migrations run once here, instead of once in every test file (~2 s each). */
export default async function setup(project: TestProject) {
  const dir = await makeEmptyDatabase("pglite-template-");
  project.provide("pgliteTemplate", dir);
  return () => rmSync(dirname(dir), { recursive: true, force: true });
}
