import { defineConfig } from "@playwright/test";
import { findChromium, TEST_CHROMIUM_ARGS } from "./scripts/lib/chromium";
import { E2E_ADMIN_TOKEN } from "./tests/e2e/constants";

// One clock for the whole run, fixed to a day so no date on a page or in a screenshot depends on the day the
// suite runs (tests/support/test-clock.mjs says how). Set here, in the runner, before it starts the workers and
// the servers, which inherit it; a worker loading this file again keeps the runner's values.
process.env["TEST_CLOCK"] ??= "2026-06-15T12:00:00.000Z";
process.env["TEST_CLOCK_REAL_START"] ??= String(Date.now());
const clockModule = new URL("./tests/support/test-clock.mjs", import.meta.url).href;
if (!process.env["NODE_OPTIONS"]?.includes(clockModule)) {
  process.env["NODE_OPTIONS"] = `${process.env["NODE_OPTIONS"] ?? ""} --import=${clockModule}`.trim();
}

const port = Number(process.env["E2E_PORT"] ?? 4329);
// A database per port, so two runs on two ports (E2E_PORT) never remove each other's.
const dataDir = process.env["E2E_PORT"] ? `.data/e2e-${port}` : ".data/e2e";
/** `*.slow.spec.ts` (stress: the 200-person crowd) runs in `npm run test:slow` (E2E_SLOW=1), after the fast suites. */
const slow = process.env["E2E_SLOW"] === "1";
const found = await findChromium("headless-shell");
const launchOptions = {
  args: TEST_CHROMIUM_ARGS,
  ...(found?.executablePath ? { executablePath: found.executablePath } : {}),
};

export default defineConfig({
  testDir: "tests/e2e",
  ...(slow ? { testMatch: /\.slow\.spec\.ts$/ } : { testIgnore: /\.slow\.spec\.ts$/ }),
  fullyParallel: true,
  forbidOnly: Boolean(process.env["CI"]),
  retries: 0,
  workers: 2,
  reporter: "list",
  use: {
    baseURL: `http://localhost:${port}`,
    // No trace by default: recording one for every test (to keep the failures') cost 10% of the browser suite's
    // CPU and 15% of the crowd's. To debug a failure: `npx playwright test <file> --trace on`, then show-trace.
    trace: "off",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "desktop",
      // Tags from tests/e2e/fixtures.ts choose the project.
      grepInvert: /@mobile-only/,
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: "mobile",
      grepInvert: /@any-viewport|@desktop-only/,
      // The stress test starts a server of its own and measures the server, not the layout: desktop runs it.
      testIgnore: /\.slow\.spec\.ts$/,
      use: {
        browserName: "chromium",
        viewport: { width: 375, height: 812 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  // The shared server for the fast tests; the stress test starts its own (ownServer) and needs none.
  webServer: slow
    ? []
    : {
        // A fresh embedded database for every run.
        command: `rm -rf ${dataDir} && npm run serve`,
        // The browser tests sign up many times from one address: they raise the rate limit explicitly.
        env: {
          PORT: String(port),
          DATA_DIR: dataDir,
          RATE_LIMIT_MAX: "100000",
          NETLIFY_RATE_LIMIT: "off",
          NETLIFY_SCHEDULES: "off",
          WAITLIST_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        },
        url: `http://localhost:${port}/`,
        reuseExistingServer: false,
        timeout: 60_000,
      },
});
