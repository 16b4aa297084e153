import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:slow`, run last by `npm test`: the suites that take seconds each: the fuzzer, 500 concurrent
 * sign-ups, the crowd and the flood, the CLI (child processes), and the ones that start, kill and race real
 * servers and processes.
 */
export default defineConfig({
  test: {
    include: ["tests/slow/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/integration/pglite-template.setup.ts"],
    // The files share nothing (each its own temporary folders, databases and ports), so they run side by side,
    // one per core: one file waits on the processes it starts and kills while another computes.
    maxWorkers: availableParallelism(),
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
