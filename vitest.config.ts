import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Every vitest suite, as three projects: `npm run test:unit` runs `fast`, `npm run test:platform` runs `platform`,
 * `npm run test:slow:node` runs `slow` (each `vitest run --project <name>`; `npx vitest --project fast` watches).
 * maxWorkers, fileParallelism, isolate, globalSetup and setupFiles are per project in vitest 5. Projects that run
 * together must differ in `sequence.groupOrder` when their maxWorkers differ (vitest refuses the run otherwise), so
 * each has its own: a bare `npx vitest run` runs fast, then platform, then slow, in the order `npm test` does.
 */
export default defineConfig({
  test: {
    environment: "node",
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          sequence: { groupOrder: 0 },
          // Every pure test, and the integration tests on real databases and a real SMTP server.
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/pglite-template.setup.ts"],
          // One file more than there are cores: the integration files wait on child processes and PostgreSQL about
          // a third of the time (vitest's default, cores - 1, ran them one at a time on a 2-core machine).
          maxWorkers: availableParallelism() + 1,
          // A worker runs file after file without reloading modules (the imports are the costly part). What a
          // file leaves in the process (stubbed environment, cached config, the open store) is undone after it by
          // reset-after-file.ts; green in repeated runs with the files shuffled (--sequence.shuffle.files).
          isolate: false,
          setupFiles: ["tests/support/reset-after-file.ts"],
          // A bound for a hung test, not a measure of speed: vitest's default is close to what reopening the
          // embedded database can take on a fresh machine's first run, with its caches cold.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "platform",
          sequence: { groupOrder: 1 },
          // The built site and functions on Netlify's own tools (needs `npm run build` first).
          include: ["tests/platform/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One file at a time: two emulators on this one project share its .netlify/functions-serve folder and
          // rebuild each other's functions from under them (ENOENT on ___netlify-entry-point.mjs).
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          sequence: { groupOrder: 2 },
          // Run last by `npm test`: the suites that take seconds each: the fuzzer, 500 concurrent sign-ups, the
          // crowd and the flood, the CLI (child processes), and the ones that start, kill and race real servers.
          include: ["tests/slow/**/*.test.ts"],
          globalSetup: ["tests/support/pglite-template.setup.ts"],
          // The files share nothing (each its own temporary folders, databases and ports), so they run side by
          // side, one per core: one file waits on the processes it starts and kills while another computes.
          maxWorkers: availableParallelism(),
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
