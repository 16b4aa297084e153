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

/**
 * The tests' and budgets' Chromium: the flags above, and the GPU process's work (compositing, in software: there
 * is no GPU) done inside the browser process, which spares a process and the messages to it, with the same
 * results. Lighthouse and the proof-of-work benchmark keep the usual process layout, the one a visitor's
 * browser has.
 */
export const TEST_CHROMIUM_ARGS = [...CHROMIUM_ARGS, "--in-process-gpu"];

export const CHROMIUM_HINT =
  "No Chromium found: set CHROME_PATH, or install one (Debian/Ubuntu: `sudo apt-get install -y chromium-headless-shell chromium`; elsewhere: `npx playwright install chromium`).";

/** Debian's builds: the headless shell (package chromium-headless-shell) and the full browser (package chromium). */
const DEBIAN = { "headless-shell": "/usr/lib/chromium/chromium-headless-shell", browser: "/usr/bin/chromium" } as const;

/**
 * Finds a Chromium: CHROME_PATH, else Debian's, else Playwright's own download. Returns `undefined` when
 * Playwright's download is the one to use, and null when none exists.
 *
 * - `"headless-shell"` (the tests and the size budgets) prefers Debian's chromium-headless-shell, the build
 *   Playwright itself runs headless tests in: the same Blink and V8 without the full browser around them, so
 *   far less work per test. Without it, the full browser is used.
 * - `"browser"` (Lighthouse and the proof-of-work benchmark) wants the full browser, the one a visitor has.
 */
export async function findChromium(
  kind: keyof typeof DEBIAN = "browser",
): Promise<{ executablePath: string | undefined } | null> {
  const fromEnv = process.env["CHROME_PATH"];
  if (fromEnv) return existsSync(fromEnv) ? { executablePath: fromEnv } : null;
  const debian = [DEBIAN[kind], DEBIAN.browser].find((path) => existsSync(path));
  if (debian) return { executablePath: debian };
  const { chromium } = await import("@playwright/test");
  return existsSync(chromium.executablePath()) ? { executablePath: undefined } : null;
}

/** The DevTools protocol calls the throttling needs (a Playwright CDPSession satisfies it). */
interface DevTools {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

/**
 * Lighthouse's mobile preset as DevTools throttling: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4× slower.
 * The benchmarks that time a page in a browser of their own (the tap, the console) measure under it.
 */
export async function throttleLikeMobilePreset(cdp: DevTools): Promise<void> {
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}
