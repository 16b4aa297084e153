/**
 * `npm run bench:lighthouse`: builds, serves the site locally (npm start's server) and runs Lighthouse 13 with
 * the mobile and desktop presets on all four pages, three runs each; writes the medians to docs/performance.md.
 */
import { execSync } from "node:child_process";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { startServer } from "../tests/support/server";
import { CHROMIUM_ARGS, findChromium } from "./lib/chromium";
import { writeSection } from "./lib/perf-doc";

const RUNS = Number(process.env["LIGHTHOUSE_RUNS"] ?? 3);
// Lighthouse does not audit a document answered with status 404, so the 404 page is audited at its file.
const PAGES = ["/", "/product", "/terms-of-service", "/404.html"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

if (process.env["SKIP_BUILD"] !== "1") execSync("npm run build", { stdio: "inherit" });
const found = await findChromium();
if (!found?.executablePath) throw new Error("bench:lighthouse needs a Chromium: set CHROME_PATH or install chromium.");
const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: found.executablePath,
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const rows: string[] = [];
try {
  for (const preset of ["mobile", "desktop"] as const) {
    for (const page of PAGES) {
      const runs: Array<Record<string, number>> = [];
      for (let run = 0; run < RUNS; run++) {
        const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] };
        const result = await lighthouse(
          `${server.url}${page}`,
          flags,
          preset === "desktop" ? desktopConfig : undefined,
        );
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${page}`);
        runs.push({
          ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
          lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
          tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
          cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
        });
      }
      const m = (key: string) => median(runs.map((r) => r[key] ?? Number.NaN));
      const row = `| ${preset} | ${page} | ${CATEGORIES.map((c) => m(c)).join(" | ")} | ${Math.round(m("lcp"))} | ${Math.round(m("tbt"))} | ${m("cls").toFixed(3)} |`;
      console.log(row);
      rows.push(row);
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}

writeSection(
  "lighthouse",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:lighthouse\`: Lighthouse 13, medians of ${RUNS} runs, ` +
    "local production server, headless Chromium, default throttling of each preset.\n\n" +
    "| preset | page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS |\n" +
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n" +
    rows.join("\n"),
);
