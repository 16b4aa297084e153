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
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
