/**
 * `npm run bench -- lighthouse [--runs N] [--desktop] [--before <dist folder>] [--compare <folder or URL> …]`:
 * Lighthouse 13, mobile preset (and desktop with --desktop), medians of 3 runs, on every public page of this site
 * (built, served by `npm start`'s server), on a minimal page served the same way by the same server, and on the
 * reference sites (../shared/anchors, or those given with --compare), interleaved run by run so every page meets
 * the same machine load. Each first paint is also said as a multiple of the minimal page's; the run fails when a
 * public page of this site takes more than 1.2 × (after writing the table to docs/performance.md).
 */
import { execSync } from "node:child_process";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { writeSection } from "../scripts/lib/perf-doc";
import { startServer } from "../scripts/lib/server-process";
import { startSmtp } from "../tests/support/smtp";
import {
  addMinimalPage,
  anchorFolders,
  beforeTarget,
  compareTarget,
  MINIMAL_NAME,
  MINIMAL_PATH,
  type Target,
} from "./lib/lighthouse-sites";
import {
  CATEGORIES,
  FCP_LIMIT,
  type Lhr,
  type Metrics,
  medianOf,
  metricsOf,
  type Row,
  table,
} from "./lib/lighthouse-table";

const { values } = parseArgs({
  options: {
    compare: { type: "string", multiple: true },
    before: { type: "string" },
    runs: { type: "string" },
    desktop: { type: "boolean" },
  },
});
const RUNS = Number(values.runs ?? process.env["LIGHTHOUSE_RUNS"] ?? 3);
const PRESETS = values.desktop ? (["mobile", "desktop"] as const) : (["mobile"] as const);
// Lighthouse does not audit a document answered with status 404, so the 404 page is audited at its file.
const PUBLIC_PAGES = ["/", "/product", "/terms-of-service", "/join", "/404.html"];
// A person's status page (a function's answer, its token in the address), once someone has confirmed.
const STATUS_PAGE = "/waitlist/status";

if (process.env["SKIP_BUILD"] !== "1") execSync("npm run build", { stdio: "inherit" });
const found = await findChromium();
if (!found?.executablePath) throw new Error("bench lighthouse needs a Chromium: set CHROME_PATH or install chromium.");
const removeMinimal = addMinimalPage("dist");
// Mail on (an SMTP server on loopback), so one person can sign up and confirm: their status page is audited too.
const smtp = await startSmtp();
const ours = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: "Noosphere <hello@noosphere.test>" });

async function confirmedStatusPath(): Promise<string> {
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
}

const compared = values.compare ?? anchorFolders();
const targets: Target[] = [
  { name: "this site", url: ours.url, pages: [...PUBLIC_PAGES, await confirmedStatusPath()], close: ours.stop },
  { name: MINIMAL_NAME, url: ours.url, pages: [MINIMAL_PATH], close: async () => {} },
  ...(values.before ? [await beforeTarget(values.before, PUBLIC_PAGES)] : []),
  ...(await Promise.all(compared.map(compareTarget))),
];

/** One Lighthouse run; one Lighthouse itself reports as failed (e.g. a trace it could not read) is run again. */
async function audit(url: string, preset: string, port: number): Promise<Lhr> {
  const flags: Flags = { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] };
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, preset === "desktop" ? desktopConfig : undefined);
    if (!result?.lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!result.lhr.runtimeError) return result.lhr;
    if (attempt === 3) throw new Error(`Lighthouse failed 3 times on ${url}: ${result.lhr.runtimeError.message}`);
    console.warn(`retrying ${url}: ${result.lhr.runtimeError.code}`);
  }
}

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
          const key = `${preset}\t${target.name}\t${page}`;
          const lhr = await audit(`${target.url}${page}`, preset, chrome.port);
          results.set(key, [...(results.get(key) ?? []), metricsOf(lhr)]);
          console.log(
            `run ${run + 1}/${RUNS} ${preset} ${target.name} ${page}: FCP ${Math.round(metricsOf(lhr)["fcp"] ?? 0)} ms`,
          );
        }
      }
    }
  }
} finally {
  chrome.kill();
  await Promise.all(targets.map((t) => t.close()));
  await smtp.close();
  removeMinimal();
}

const rows: Row[] = PRESETS.flatMap((preset) =>
  targets.flatMap((target) =>
    target.pages.map((page) => ({
      preset,
      site: target.name,
      page,
      metrics: medianOf(results.get(`${preset}\t${target.name}\t${page}`) ?? []),
    })),
  ),
);
const floor = (preset: string) =>
  rows.find((r) => r.preset === preset && r.site === MINIMAL_NAME)?.metrics["fcp"] ?? Number.NaN;
const over = rows.filter(
  (r) =>
    r.site === "this site" && PUBLIC_PAGES.includes(r.page) && (r.metrics["fcp"] ?? 0) > FCP_LIMIT * floor(r.preset),
);
const shown = (page: string) =>
  page.startsWith(`${STATUS_PAGE}?`) ? `${STATUS_PAGE}?token=…` : page === MINIMAL_PATH ? "(0.4 KB, no script)" : page;
const verdict = over.length
  ? `Over ${FCP_LIMIT} × the minimal page's first paint: ${over.map((r) => `${r.preset} ${r.page}`).join(", ")}.`
  : `Every public page of this site paints within ${FCP_LIMIT} × the minimal page's first paint.`;
const body = `${table(rows, floor, shown)}\n\n${verdict}`;
console.log(body);
writeSection(
  "lighthouse",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- lighthouse${values.desktop ? " --desktop" : ""}\`: ` +
    `Lighthouse 13, ${PRESETS.join(" and ")} preset${PRESETS.length > 1 ? "s" : ""}, medians of ${RUNS} interleaved runs, every site served on loopback with compression, headless Chromium, ` +
    "each preset's default throttling. The minimal page is a 0.4 KB HTML page (a heading and a paragraph, no script, no style) served by this site's own server with its headers: " +
    `“FCP ÷ minimal” is each first paint as a multiple of its, and a public page of this site may take at most ${FCP_LIMIT} ×. ` +
    (values.before ? "“before” is another build of this site (`--before <its dist>`), served as a CDN would. " : "") +
    "The reference sites are ../shared/anchors (see its README). The 404 page is audited at /404.html (Lighthouse does not audit a 404 status); " +
    "the status page is a confirmed person's (noindex and no-referrer by design: Lighthouse's SEO audit counts the noindex against it); " +
    "the 404 page's best-practices score counts the `console.error` docs/brief.md requires. “JS transferred” counts script files.\n\n" +
    body,
);
if (over.length) process.exitCode = 1;
