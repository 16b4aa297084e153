import { existsSync } from "node:fs";

/** Flags Chromium needs here: root, offline, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export const CHROMIUM_HINT =
  "No Chromium found: set CHROME_PATH, or install one (Debian/Ubuntu: `sudo apt-get install -y chromium`; elsewhere: `npx playwright install chromium`).";

/**
 * Finds a Chromium: CHROME_PATH, else Debian's /usr/bin/chromium, else Playwright's own download.
 * Returns `undefined` when Playwright's download is the one to use, and null when none exists.
 */
export async function findChromium(): Promise<{ executablePath: string | undefined } | null> {
  const fromEnv = process.env["CHROME_PATH"];
  if (fromEnv) return existsSync(fromEnv) ? { executablePath: fromEnv } : null;
  if (existsSync("/usr/bin/chromium")) return { executablePath: "/usr/bin/chromium" };
  const { chromium } = await import("@playwright/test");
  return existsSync(chromium.executablePath()) ? { executablePath: undefined } : null;
}
