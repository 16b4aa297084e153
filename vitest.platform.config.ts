import { defineConfig } from "vitest/config";

/** `npm run test:platform`: the built site and functions on Netlify's own tools (needs `npm run build` first). */
export default defineConfig({
  test: {
    include: ["tests/platform/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One file at a time: two emulators on this one project share its .netlify/functions-serve folder and
    // rebuild each other's functions from under them (ENOENT on ___netlify-entry-point.mjs).
    fileParallelism: false,
  },
});
