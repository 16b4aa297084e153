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
  },
});
