import { defineConfig } from "vitest/config";

/** `npm run test:stress`: slower checks that start and kill real servers. */
export default defineConfig({
  test: {
    include: ["tests/stress/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
  },
});
