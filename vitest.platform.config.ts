import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** `npm run test:platform`: the built site and functions on Netlify's own tools (needs `npm run build` first). */
export default defineConfig({
  test: {
    include: ["tests/platform/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The files mostly wait on Netlify's emulator and bundler in child processes: one more than the cores.
    maxWorkers: availableParallelism() + 1,
  },
});
