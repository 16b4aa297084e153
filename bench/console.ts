/**
 * `npm run bench -- console`: the operators' console (/admin, signed in, 200 sign-ups) loaded in Chromium under the
 * conditions of Lighthouse's mobile preset (412×823, 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4× slower),
 * 5 cold loads: its JavaScript, its bytes on the wire, first contentful paint and time to interactive (no script
 * runs, so interactive at DOMContentLoaded). Medians, to docs/performance.md.
 */
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_HINT, findChromium, throttleLikeMobilePreset } from "../scripts/lib/chromium";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { createStore } from "../src/server/app/store";
import { openPgliteDb } from "../src/server/db/pglite";
import { copyDatabase, makeEmptyDatabase } from "../tests/support/embedded-database";

const RUNS = 5;
const TOKEN = "bench-console-token-0123456789abcdef0123456789";
const dataDir = copyDatabase(await makeEmptyDatabase("bench-console-"), "bench-console-");
const store = createStore(await openPgliteDb(dataDir));
await store.db.query(
  `INSERT INTO waitlist (email, status, source, created_at)
   SELECT 'person' || i || '@example.com', (ARRAY['pending','confirmed','invited','joined'])[1 + i % 4],
     (ARRAY['newsletter','hn',NULL])[1 + i % 3], now() - make_interval(hours => i * 7)
   FROM generate_series(1, 200) AS i`,
);
await store.close();
const server = await startServer(
  { WAITLIST_ADMIN_TOKEN: TOKEN, EARLY_ACCESS_URL: "https://app.example/signup" },
  dataDir,
);
const found = await findChromium("browser");
if (!found) throw new Error(CHROMIUM_HINT);
const browser = await chromium.launch({
  args: CHROMIUM_ARGS,
  ...(found.executablePath ? { executablePath: found.executablePath } : {}),
});
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const samples: Array<{ fcp: number; interactive: number; bytes: number; scripts: number }> = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin`);
    await page.getByLabel("Admin token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/admin$/);
    const cdp = await context.newCDPSession(page);
    await throttleLikeMobilePreset(cdp);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    let bytes = 0;
    let scripts = 0;
    cdp.on("Network.loadingFinished", (event) => (bytes += event.encodedDataLength));
    page.on("request", (request) => request.resourceType() === "script" && scripts++);
    await page.goto(`${server.url}/admin?range=90`, { waitUntil: "load" });
    const timing = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
      return { fcp, interactive: nav?.domContentLoadedEventEnd ?? 0 };
    });
    samples.push({ ...timing, bytes, scripts });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
const table = [
  "## Operators' console (`npm run bench -- console`)",
  "",
  `/admin signed in, 200 sign-ups, the 90-day view, under Lighthouse's mobile preset conditions; medians of ${RUNS}`,
  `cold loads, measured on ${new Date().toISOString().slice(0, 10)}.`,
  "",
  "| | |",
  "| --- | ---: |",
  `| JavaScript requests | ${median(samples.map((s) => s.scripts))} (0 KB) |`,
  `| bytes on the wire (the HTML with its inline CSS and SVG, uncompressed, as npm start sends a function's answer) | ${(median(samples.map((s) => s.bytes)) / 1024).toFixed(1)} KB |`,
  `| first contentful paint | ${(median(samples.map((s) => s.fcp)) / 1000).toFixed(2)} s |`,
  `| time to interactive (DOMContentLoaded: no script to wait for) | ${(median(samples.map((s) => s.interactive)) / 1000).toFixed(2)} s |`,
].join("\n");
console.log(table);
writeSection("console", table);
