/**
 * `npm run check:html`: every built page through the Nu Html Checker (vnu.jar from npm's `vnu-jar`; needs
 * Java 17+), errors only. A page passes with 0 errors, except for the exact messages below: each is the
 * checker's limit or Astro's own output, not a mistake of ours, and its reason is written beside it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
}

/** Messages excused, each with its reason; `extract`, where given, must also be in the message's extract. */
const SUPPRESSED: Array<{ message: RegExp; extract?: string; reason: string }> = [
  {
    message: /^A “style” element in “body” must be the first child of its parent\.$/,
    extract: "<style>astro-",
    reason:
      "Astro itself appends `<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>` " +
      "after the first island in <body>; only that element is excused.",
  },
  {
    message: /^CSS: Unrecognized at-rule “@property”\.?$/,
    reason:
      "vnu's CSS checker predates @property (CSS Properties and Values API, Baseline 2024), which Tailwind 4 emits.",
  },
  {
    message: /^CSS: “margin-trim”: Property “margin-trim” doesn't exist\.$/,
    reason:
      "Tailwind 4's preflight tests `@supports (margin-trim: block)`; a feature query for an unknown property is valid CSS.",
  },
  {
    message: /^CSS: “transition-property”: “--tw-gradient-(from|via|to)” is not a “transition-property” value\.$/,
    reason: "Custom properties are valid transition-property values (CSS Transitions); vnu's grammar lacks them.",
  },
  {
    message: /^A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\.$/,
    extract: '<link rel="expect" href="#main" blocking="render">',
    reason:
      'The HTML Standard also allows `blocking="render"` on `<link rel="expect">` (2024); vnu predates it. ' +
      "Only that link is excused.",
  },
];

const dist = process.argv[2] ?? "dist";
const pages = readdirSync(dist, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".html"))
  .map((file) => join(dist, file));
const jar = join(dirname(createRequire(import.meta.url).resolve("vnu-jar")), "build", "dist", "vnu.jar");
let output: string;
try {
  output = execFileSync(
    "java",
    // The quick compiler only (C1): a run this short never earns back the optimising compiler's work, and the
    // findings are the same. Its code needs a deeper stack than vnu's minimum for the HTML schema.
    [
      "-Xss8m",
      "-XX:TieredStopAtLevel=1",
      "-jar",
      jar,
      "--errors-only",
      "--format",
      "json",
      "--stdout",
      "--exit-zero-always",
      ...pages,
    ],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
} catch (error) {
  console.error(
    `check:html needs Java 17+ on PATH (Debian: apt-get install -y default-jre-headless): ${String(error)}`,
  );
  process.exit(1);
}
const messages = (JSON.parse(output) as { messages: VnuMessage[] }).messages.filter((m) => m.type === "error");
const excused = (m: VnuMessage) =>
  SUPPRESSED.some(
    ({ message, extract }) => message.test(m.message) && (!extract || (m.extract ?? "").includes(extract)),
  );
const errors = messages.filter((m) => !excused(m));
const counts = new Map<string, number>();
for (const m of messages.filter(excused)) counts.set(m.message, (counts.get(m.message) ?? 0) + 1);

for (const [message, count] of counts) console.log(`excused ×${count}: ${message}`);
for (const error of errors)
  console.error(`${error.url.replace(/^.*\/dist\//, "dist/")}: ${error.message}\n  ${error.extract ?? ""}`);
if (errors.length) {
  console.error(`\ncheck:html: ${errors.length} error(s) in ${pages.length} pages`);
  process.exit(1);
}
console.log(`check:html: ${pages.length} pages, 0 errors (Nu Html Checker)`);
