/**
 * Size budgets for the production build (dist/), enforced by `npm test`. Per page, gzip: every JS file the
 * page can load (islands, renderers and their imports, inline scripts) at most 106 KB; CSS at most 12 KB;
 * HTML at most 20 KB; no parser-blocking script in <head>; no stylesheet request (CSS inline); the font subset,
 * woff2, with metric-matched fallbacks, and not preloaded (it loads after the first paint).
 * Functions, zipped by Netlify's own bundler from netlify.toml: at most 1.5 MB each. JavaScript before any
 * interaction, measured in Chromium (load + 5 s idle, desktop and mobile): at most 10 KB per page. Each page,
 * headers and brotli body as served, within a new connection's first round trip (14.6 KB).
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadHeaderRules } from "../dev/local-netlify/site-server";
import { createJoinPageHandler } from "../src/server/signup/join-page";
import { bundleFunctions } from "./lib/bundle-functions";
import { FIRST_WINDOW_BYTES, measureWireSizes, type WireSize } from "./lib/first-round-trip";
import { type JsBeforeInteraction, measureJsBeforeInteraction } from "./lib/js-before-interaction";
import { measurePages } from "./lib/page-weight";
import { writeSection } from "./lib/perf-doc";
import { serveBuild } from "./lib/serve-build";

export const BUDGETS = {
  // Everything a page can ever load, islands included (they load on intent or when scrolled to): /product
  // carries both islands, and the dialog the proof-of-work client. What loads before any interaction has its
  // own, much smaller budget below. Was 102 KB while the pages' own small scripts (the early tap capture, the font
  // loader, the menu: 1.7 KB) were inline, counted in the HTML; as files (astro.config.mjs says why) they count here.
  // 104 KB until the dialog asked the team's own questions (issue 50: their controls and rules, +1.2 KB on /product).
  js: 106_000,
  css: 12_000,
  html: 20_000,
  font: 30_000,
  // Every function: Netlify's bundler adds its telemetry loader and bootstrap (about 300 KB zipped) to each, and
  // traces each package a function imports by name whole (V2 functions: esbuild with packages external): nodemailer
  // 199 KB, the drivers. zod comes by path, bundled and tree-shaken (src/lib/waitlist/zod-mini.ts: 218 → 8 KB).
  functionZip: 1_500_000,
  // The sign-up, launch day's hottest path: nodemailer for the optional confirmation e-mails (loaded only when
  // SMTP_URL is set), never the throwaway-domain list (350 KB; the confirmation's, netlify.toml). 1.43 MB with it,
  // 1.07 MB with zod traced whole, 0.84 MB since. A refused /join without JavaScript now answers the form again,
  // filled, from the page's own SignupFields (issue 50): react-dom/server, +0.38 MB, 1.22 MB. Loaded only on that
  // refusal, so a sign-up's cold start reads no more than before; the budget keeps the rest where it was.
  signupFunctionZip: 1_300_000,
  jsBeforeInteraction: 10_000,
  // Status line, headers and brotli body: what arrives in a new connection's first congestion window. One byte
  // more and the page waits a second round trip before it can paint (150 ms in Lighthouse's mobile preset).
  firstRoundTrip: FIRST_WINDOW_BYTES,
};
const FONT = "fonts/inter-latin-var.woff2";
const args = process.argv.slice(2);
const write = args.includes("--write");
const dist = args.find((arg) => !arg.startsWith("--")) ?? "dist";
const lines: string[] = [];
const failures: string[] = [];
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

console.log("page                     html gz   css gz    js gz");
for (const page of measurePages(dist)) {
  console.log(
    `${page.page.padEnd(24)} ${kb(page.html).padStart(8)} ${kb(page.css).padStart(8)} ${kb(page.js).padStart(8)}`,
  );
  lines.push(`| ${page.page} | ${page.html} | ${page.css} | ${page.js} | ${page.jsFiles.length} |`);
  if (page.js > BUDGETS.js) failures.push(`${page.page}: JavaScript ${kb(page.js)} > ${kb(BUDGETS.js)}`);
  if (page.css > BUDGETS.css) failures.push(`${page.page}: CSS ${kb(page.css)} > ${kb(BUDGETS.css)}`);
  if (page.html > BUDGETS.html) failures.push(`${page.page}: HTML ${kb(page.html)} > ${kb(BUDGETS.html)}`);
  if (page.blockingHeadScripts > 0)
    failures.push(`${page.page}: ${page.blockingHeadScripts} render-blocking script(s) in <head>`);
  const html = readFileSync(join(dist, page.page), "utf8");
  if (html.includes(`href="/${FONT}"`)) failures.push(`${page.page}: the font is requested before the first paint`);
  if (/<link[^>]+rel="stylesheet"/.test(html)) failures.push(`${page.page}: a render-blocking stylesheet request`);
  if (!/size-adjust:/.test(html)) failures.push(`${page.page}: no metric-matched font fallback in its styles`);
}

const font = statSync(join(dist, FONT)).size;
console.log(`font ${FONT}: ${kb(font)} (woff2, subset)`);
if (font > BUDGETS.font) failures.push(`font: ${kb(font)} > ${kb(BUDGETS.font)} (is it subset?)`);

// What a visitor's browser downloads before any interaction: each page at its URL (404.html at an unknown one).
const urls = measurePages(dist).map(({ page }) =>
  page === "404.html" ? "/no-such-page" : `/${page.replace(/(index)?\.html$/, "")}`.replace(/\/$/, "") || "/",
);
// One server for both: the wire sizes and what a browser loads before any interaction. /join is a function's
// answer in production (src/server/signup/join-page.ts): measured as that function sends it, not as the file.
const joinPage = createJoinPageHandler(pathToFileURL(resolve(dist, "join.html")));
const served = await serveBuild(dist, await loadHeaderRules("netlify.toml", dist), [
  { name: "join-page", path: "/join", handler: joinPage },
]);
let wire: WireSize[];
let before: JsBeforeInteraction[];
try {
  wire = await measureWireSizes(served.port, urls);
  before = await measureJsBeforeInteraction(served.base, urls);
} finally {
  await served.close();
}
for (const size of wire) {
  console.log(
    `on the wire ${size.path.padEnd(27)} ${size.total} bytes (headers ${size.headers}, brotli body ${size.body})`,
  );
  if (size.total > BUDGETS.firstRoundTrip)
    failures.push(
      `${size.path}: ${size.total} bytes on the wire > ${BUDGETS.firstRoundTrip} (the first round trip); trim the page or what every page carries`,
    );
}
for (const run of before) {
  console.log(`before interaction ${run.viewport.padEnd(7)} ${run.page.padEnd(18)} ${kb(run.bytes).padStart(8)} JS`);
  if (run.bytes > BUDGETS.jsBeforeInteraction) {
    failures.push(
      `${run.page} (${run.viewport}): ${kb(run.bytes)} of JavaScript before any interaction > ${kb(BUDGETS.jsBeforeInteraction)}`,
    );
  }
}

const zipDir = join(tmpdir(), `budget-functions-${process.pid}`);
const zips = await bundleFunctions(zipDir);
rmSync(zipDir, { recursive: true, force: true });
for (const fn of zips) {
  console.log(`function ${fn.name}: ${kb(fn.size)} zipped (@netlify/zip-it-and-ship-it)`);
  const budget = fn.name === "waitlist" ? BUDGETS.signupFunctionZip : BUDGETS.functionZip;
  if (fn.size > budget) failures.push(`function ${fn.name}: ${kb(fn.size)} zipped > ${kb(budget)}`);
}

if (failures.length > 0) {
  console.error(`\nBudget exceeded:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
if (write) {
  writeSection(
    "budgets",
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run budgets -- --write\` on the production build. ` +
      `Budgets (bytes, gzip): JS ${BUDGETS.js}, CSS ${BUDGETS.css}, HTML ${BUDGETS.html} per page; font ${kb(font)} (subset woff2).\n\n` +
      "| page | HTML | CSS | JS (all it can load) | JS files |\n| --- | ---: | ---: | ---: | ---: |\n" +
      lines.join("\n") +
      `\n\nOn the wire, status line, headers and brotli body (budget ${BUDGETS.firstRoundTrip} bytes, the first round trip): ` +
      wire.map((size) => `${size.path} ${size.total}`).join(", ") +
      `\n\nJavaScript before any interaction (Chromium, load + 5 s idle, compressed as served; budget ${kb(BUDGETS.jsBeforeInteraction)}): ` +
      before.map((run) => `${run.page} ${run.viewport} ${kb(run.bytes)}`).join(", ") +
      `\n\nFunctions as Netlify zips them (@netlify/zip-it-and-ship-it, budget ${kb(BUDGETS.functionZip)} each, the sign-up's ${kb(BUDGETS.signupFunctionZip)}): ` +
      zips.map((fn) => `${fn.name} ${kb(fn.size)}`).join(", ") +
      ".",
  );
}
console.log(
  "budgets: all pages within JS 106 KB (≤ 10 KB before interaction), CSS 12 KB, HTML 20 KB (gzip), 14.6 KB on the wire (brotli, headers included); CSS inline, font subset with metric-matched fallbacks; functions ≤ 1.5 MB zipped (the sign-up's ≤ 1.3 MB)",
);
