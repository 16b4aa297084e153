/**
 * Vitest setup file (vitest.config.ts): with `isolate: false` a worker runs file after file in one process, so
 * whatever a file leaves in the process is undone after it: stubbed environment variables, the cached config,
 * and the process's store (closed; the next file's first getStore opens its own).
 */
import { afterAll, vi } from "vitest";
import { resetConfig } from "../../src/server/config";
import { closeStore } from "../../src/server/store-instance";

afterAll(async () => {
  await closeStore();
  vi.unstubAllEnvs();
  resetConfig();
});
