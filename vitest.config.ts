import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/integration/pglite-template.setup.ts"],
    // One file more than there are cores: the integration files wait on child processes and PostgreSQL about a
    // third of the time (vitest's default, cores - 1, ran them one at a time on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    // A worker runs file after file without reloading modules (the imports are the costly part). What a
    // file leaves in the process (stubbed environment, cached config, the open store) is undone after it by
    // reset-after-file.ts; green in repeated runs with the files shuffled (--sequence.shuffle.files).
    isolate: false,
    setupFiles: ["tests/integration/reset-after-file.ts"],
    // A bound for a hung test, not a measure of speed: vitest's default is close to what reopening the embedded
    // database can take on a fresh machine's first run, with its caches cold.
    testTimeout: 30_000,
  },
});
