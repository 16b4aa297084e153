/**
 * `npm run bench -- pow`: how long a visitor's browser takes to solve the proof-of-work challenge past a
 * network's free allowance: the built worker (dist/_astro/proof.worker-*.js) in Chromium, on challenges made
 * by the server's own code, with and without Lighthouse's mobile CPU slowdown (4×). Medians of 9 to
 * docs/performance.md.
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "@playwright/test";
import { createSiteHandler } from "../dev/local-netlify/site-server";
import { CHROMIUM_ARGS, findChromium } from "../scripts/lib/chromium";
import { writeSection } from "../scripts/lib/perf-doc";
import type { RootKey } from "../src/server/crypto/secret";
import { createProofChallenge } from "../src/server/signup/proof-of-work";

const RUNS = 9;
const worker = readdirSync("dist/_astro").find((file) => /^proof\.worker-.*\.js$/.test(file));
if (!worker) throw new Error("no proof.worker in dist/_astro: run npm run build first");
const handler = createSiteHandler({ publish: "dist", headerRules: [] });
const server = createServer((req, res) => void handler(req, res));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const found = await findChromium();
const browser = await chromium.launch({
  args: CHROMIUM_ARGS,
  ...(found?.executablePath ? { executablePath: found.executablePath } : {}),
});
// Any secret: the benchmark times the solving, which does not depend on it.
const root = randomBytes(32) as RootKey;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
const rows: string[] = [];
try {
  for (const [label, rate] of [
    ["desktop (no slowdown)", 1],
    ["mobile preset (CPU 4× slower)", 4],
  ] as const) {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const challenge = await createProofChallenge(`bench${run}@example.com`, root);
      times.push(
        await page.evaluate(
          ({ url, challenge }) =>
            new Promise<number>((resolve) => {
              const started = performance.now();
              const w = new Worker(url, { type: "module" });
              w.onmessage = () => {
                resolve(performance.now() - started);
                w.terminate();
              };
              w.postMessage(challenge);
            }),
          { url: `/_astro/${worker}`, challenge },
        ),
      );
    }
    await page.close();
    rows.push(`| ${label} | ${median(times).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms |`);
  }
} finally {
  await browser.close();
  server.close();
}
const table = `| Chromium | median | slowest |\n| --- | ---: | ---: |\n${rows.join("\n")}`;
console.log(table);
writeSection(
  "proof-of-work",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- pow\`: time for the built Web Worker to solve a ` +
    `challenge made by the server's code (worker start included), ${RUNS} challenges each, DevTools CPU throttling for the mobile row.\n\n${table}`,
);
