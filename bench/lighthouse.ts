/**
 * `npm run bench -- lighthouse [--compare <folder or URL> … --runs N]`: Lighthouse 13, mobile and desktop
 * presets, on every page of this site (built, served by `npm start`'s server) and on the home page (and
 * /product, where it exists) of each compared site, interleaved run by run so every site meets the same
 * machine load. A folder is served as a CDN would (brotli/gzip, its `_headers`; `/* /index.html 200` in its
 * `_redirects` makes it a single-page app). Medians to docs/performance.md, with ours ÷ theirs.
 * Longer than 150 lines: serving, measuring and the side-by-side table belong to one run.
 */
import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { createSiteHandler, loadHeaderRules } from "../dev/local-netlify/site-server";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { startSmtp } from "../tests/support/smtp";

const { values } = parseArgs({ options: { compare: { type: "string", multiple: true }, runs: { type: "string" } } });
const RUNS = Number(values.runs ?? process.env["LIGHTHOUSE_RUNS"] ?? 5);
const PRESETS = ["mobile", "desktop"] as const;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
// Lighthouse does not audit a document answered with status 404, so the 404 page is audited at its file. A
// person's status page (a function's answer, its token in the address) is added once someone has confirmed.
const OUR_PAGES = ["/", "/product", "/terms-of-service", "/join", "/404.html"];
const STATUS_PAGE = "/waitlist/status";

interface Target {
  name: string;
  url: string;
  pages: string[];
  close: () => Promise<void>;
}
type Metrics = Record<string, number>;

/** Serves a built folder on loopback as a CDN would. */
async function serveFolder(folder: string): Promise<{ url: string; close: () => Promise<void> }> {
  const publish = resolve(folder);
  const redirects = existsSync(join(publish, "_redirects")) ? readFileSync(join(publish, "_redirects"), "utf8") : "";
  const spa = /^\/\*\s+\/index\.html\s+200\b/m.test(redirects);
  const handler = createSiteHandler({
    publish,
    headerRules: await loadHeaderRules(join(publish, "netlify.toml"), publish),
    ...(spa ? { notFound: { path: "/index.html", status: 200 } } : {}),
  });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function compareTarget(spec: string): Promise<Target> {
  const served = /^https?:\/\//.test(spec)
    ? { url: spec.replace(/\/$/, ""), close: async () => {} }
    : await serveFolder(spec);
  const pages = ["/"];
  if ((await fetch(`${served.url}/product`)).status === 200) pages.push("/product");
  return { name: /^https?:/.test(spec) ? new URL(spec).host : basename(resolve(spec)), ...served, pages };
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function metricsOf(lhr: Lhr): Metrics {
  const requests = (lhr.audits["network-requests"]?.details as { items?: Array<Record<string, unknown>> } | undefined)
    ?.items;
  const js = (requests ?? [])
    .filter((r) => r["resourceType"] === "Script")
    .reduce((sum, r) => sum + Number(r["transferSize"] ?? 0), 0);
  return {
    ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
    fcp: lhr.audits["first-contentful-paint"]?.numericValue ?? Number.NaN,
    lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    js,
  };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

if (process.env["SKIP_BUILD"] !== "1") execSync("npm run build", { stdio: "inherit" });
const found = await findChromium();
if (!found?.executablePath) throw new Error("bench lighthouse needs a Chromium: set CHROME_PATH or install chromium.");
// Mail on (an SMTP server on loopback), so one person can sign up and confirm: their status page is audited too.
const smtp = await startSmtp();
const ours = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" });
const statusPath = await (async () => {
  const email = "lighthouse@example.com";
  const signUp = await fetch(`${ours.url}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ours.url },
    body: JSON.stringify({ email, termsAccepted: true }),
  });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}`);
  const [mail] = await smtp.waitFor(email);
  const confirm = mail?.links.find((link) => link.includes("/waitlist/confirm?token="));
  if (!confirm) throw new Error("no confirmation link");
  const pressed = await fetch(confirm.replace(/^https?:\/\/[^/]+/, ours.url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ours.url },
    redirect: "manual",
  });
  const location = pressed.headers.get("location") ?? "";
  if (!location.startsWith(`${STATUS_PAGE}?token=`)) throw new Error(`confirming led to "${location}"`);
  return location.replace(/&confirmed$/, "");
})();
OUR_PAGES.push(statusPath);
const targets: Target[] = [
  { name: "this site", url: ours.url, pages: OUR_PAGES, close: ours.stop },
  ...(await Promise.all((values.compare ?? []).map(compareTarget))),
];
const chrome = await chromeLauncher.launch({
  chromePath: found.executablePath,
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});

const results = new Map<string, Metrics[]>();
try {
  for (let run = 0; run < RUNS; run++) {
    for (const preset of PRESETS) {
      for (const target of targets) {
        for (const page of target.pages) {
          const flags: Flags = {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: [...CATEGORIES],
          };
          let lhr: Awaited<ReturnType<typeof lighthouse>> extends infer R
            ? R extends { lhr: infer L }
              ? L
              : never
            : never;
          // A run Lighthouse itself reports as failed (runtimeError, e.g. a trace it could not read) is run again.
          for (let attempt = 1; ; attempt++) {
            const result = await lighthouse(
              `${target.url}${page}`,
              flags,
              preset === "desktop" ? desktopConfig : undefined,
            );
            if (!result?.lhr) throw new Error(`Lighthouse gave no result for ${target.name} ${page}`);
            lhr = result.lhr;
            if (!lhr.runtimeError) break;
            if (attempt === 3)
              throw new Error(`Lighthouse failed 3 times on ${target.name} ${page}: ${lhr.runtimeError.message}`);
            console.warn(`retrying ${target.name} ${page}: ${lhr.runtimeError.code}`);
          }
          const key = `${preset}\t${target.name}\t${page}`;
          results.set(key, [...(results.get(key) ?? []), metricsOf(lhr)]);
          console.log(`run ${run + 1}/${RUNS} ${preset} ${target.name} ${page}`);
        }
      }
    }
  }
} finally {
  chrome.kill();
  await Promise.all(targets.map((t) => t.close()));
  await smtp.close();
}

const medians = new Map(
  [...results].map(([key, runs]) => [
    key,
    Object.fromEntries(Object.keys(runs[0] ?? {}).map((k) => [k, median(runs.map((r) => r[k] ?? Number.NaN))])),
  ]),
);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const shown = (page: string) => (page.startsWith(`${STATUS_PAGE}?`) ? `${STATUS_PAGE}?token=…` : page);
const row = (preset: string, name: string, page: string, m: Metrics) =>
  `| ${preset} | ${name} | ${shown(page)} | ${CATEGORIES.map((c) => m[c]).join(" / ")} | ${s(m["fcp"] ?? 0)} | ${s(m["lcp"] ?? 0)} | ${Math.round(m["tbt"] ?? 0)} ms | ${(m["cls"] ?? 0).toFixed(3)} | ${((m["js"] ?? 0) / 1000).toFixed(1)} KB |`;
const lines: string[] = [];
for (const preset of PRESETS) {
  for (const target of targets) {
    for (const page of target.pages)
      lines.push(row(preset, target.name, page, medians.get(`${preset}\t${target.name}\t${page}`) ?? {}));
  }
}
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : a > 0 ? "∞" : "—");
const ratios: string[] = [];
for (const preset of PRESETS) {
  for (const target of targets.slice(1)) {
    for (const page of target.pages) {
      const mine = medians.get(`${preset}\tthis site\t${page}`) ?? medians.get(`${preset}\tthis site\t/`);
      const theirs = medians.get(`${preset}\t${target.name}\t${page}`);
      if (!mine || !theirs) continue;
      ratios.push(
        `| ${preset} | ${page} ÷ ${target.name} ${page} | ${ratio(mine["fcp"] ?? 0, theirs["fcp"] ?? 0)} | ${ratio(mine["lcp"] ?? 0, theirs["lcp"] ?? 0)} | ${ratio(mine["tbt"] ?? 0, theirs["tbt"] ?? 0)} | ${ratio(mine["js"] ?? 0, theirs["js"] ?? 0)} |`,
      );
    }
  }
}
const table =
  "| preset | site | page | perf / a11y / BP / SEO | FCP | LCP | TBT | CLS | JS transferred |\n" +
  "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n" +
  lines.join("\n") +
  (ratios.length
    ? "\n\nOurs ÷ theirs (below 1: we are faster or lighter):\n\n| preset | pages | FCP | LCP | TBT | JS |\n| --- | --- | ---: | ---: | ---: | ---: |\n" +
      ratios.join("\n")
    : "");
console.log(table);
writeSection(
  "lighthouse",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- lighthouse${(values.compare ?? []).map((c) => ` --compare ${c}`).join("")}\`: ` +
    `Lighthouse 13, medians of ${RUNS} interleaved runs, every site served on loopback with compression, headless Chromium, ` +
    "each preset's default throttling. The 404 page is audited at /404.html (Lighthouse does not audit a 404 status); " +
    "the status page is a confirmed person's (noindex and no-referrer by design: Lighthouse's SEO audit counts the noindex against it); " +
    "its best-practices score counts the `console.error` docs/brief.md requires. “JS transferred” counts script files; this site's pre-interaction JavaScript (about 3.5 KB gzip, see the budgets) is the page's own small module files.\n\n" +
    table,
);
