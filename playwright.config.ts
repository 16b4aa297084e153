import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/lib/chromium";
import { E2E_ADMIN_TOKEN } from "./tests/e2e/constants";

const port = Number(process.env["E2E_PORT"] ?? 4329);
/** `*.slow.spec.ts` (stress: the 200-person crowd) runs in `npm run test:slow` (E2E_SLOW=1), after the fast suites. */
const slow = process.env["E2E_SLOW"] === "1";
const found = await findChromium();
const launchOptions = {
  args: CHROMIUM_ARGS,
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
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "desktop",
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 }, launchOptions },
    },
    {
      name: "mobile",
      // Tests tagged ANY_VIEWPORT (fixtures.ts) check what a narrow screen cannot change; desktop runs them.
      grepInvert: /@any-viewport/,
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
  webServer: {
    // A fresh embedded database for every run.
    command: "rm -rf .data/e2e && tsx scripts/serve.ts",
    // The browser tests sign up many times from one address: they raise the rate limit explicitly.
    env: { PORT: String(port), DATA_DIR: ".data/e2e", RATE_LIMIT_MAX: "100000", WAITLIST_ADMIN_TOKEN: E2E_ADMIN_TOKEN },
    url: `http://localhost:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
