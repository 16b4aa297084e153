/**
 * `npm run bench:tap [-- --runs N]` (or `npm run bench -- tap`): the tap that matters, on a phone. Under the
 * conditions of Lighthouse's mobile preset (412×823 touch, 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4× slower), each run loads `/product`
 * (the page both sites have a dialog on) in a new browser context (nothing cached), waits 1.5 s, then taps the
 * page's call to action ("Join the Waitlist"; the SPA's "Request early access") — cold, or after a 300 ms hover
 * — and measures, in the page: tap → a dialog with its e-mail field on screen, and tap → the first keystroke
 * accepted (the first `input` event in the dialog; the key is pressed as soon as the dialog shows). The same for the
 * seed-style SPA in ../shared/anchors/ (its own dialog), run for run. Medians and p75 to docs/performance.md
 * (`--dist <folder>` measures another build instead, and only prints).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { createSiteHandler, loadHeaderRules } from "../dev/local-netlify/site-server";
import { CHROMIUM_ARGS, findChromium, throttleLikeMobilePreset } from "../scripts/lib/chromium";
import { writeSection } from "../scripts/lib/perf-doc";

// --dist measures another build (an earlier commit's, say) beside the SPA, and only prints its table.
const { values } = parseArgs({ options: { runs: { type: "string" }, dist: { type: "string" } } });
const DIST = values.dist ?? "dist";
const RUNS = Number(values.runs ?? 10);
const SPA = "../shared/anchors/seed-style-spa";

async function serve(publish: string, spa: boolean) {
  const handler = createSiteHandler({
    publish,
    headerRules: spa ? [] : await loadHeaderRules("netlify.toml", publish),
    ...(spa ? { notFound: { path: "/index.html", status: 200 } } : {}),
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Records, in the page, the tap's time, the first frame with a dialog's e-mail field on screen, the first input.
 * A string, not a function: tsx would wrap the inner functions in a helper the page does not have.
 */
const INSTRUMENT = `(() => {
  const tap = (window.__tap = {});
  const dialogs = 'dialog[open], [role="dialog"]';
  const visible = () =>
    Array.from(document.querySelectorAll(dialogs)).some((dialog) => {
      const box = dialog.querySelector('input[type="email"], input[name="email"]')?.getBoundingClientRect();
      return Boolean(box && box.width > 0 && box.height > 0);
    });
  const watch = () => {
    if (visible()) tap.visible = performance.now();
    else requestAnimationFrame(watch);
  };
  document.addEventListener("pointerdown", () => {
    if (tap.down !== undefined) return;
    tap.down = performance.now();
    requestAnimationFrame(watch);
  }, { capture: true });
  document.addEventListener("input", (event) => {
    if (event.target instanceof Element && event.target.closest(dialogs)) tap.input ??= performance.now();
  }, { capture: true });
})();`;

async function run(page: Page, base: string, opener: RegExp, hover: boolean) {
  const cdp = await page.context().newCDPSession(page);
  await throttleLikeMobilePreset(cdp);
  await page.addInitScript({ content: INSTRUMENT });
  await page.goto(`${base}/product`, { waitUntil: "load" });
  await page.waitForTimeout(1500);
  const control = page
    .getByRole("main")
    .getByRole("link", { name: opener })
    .or(page.getByRole("button", { name: opener }))
    .first();
  if (hover) {
    await control.hover();
    await page.waitForTimeout(300);
  }
  await control.tap();
  await page.waitForFunction(
    () => (window as unknown as { __tap: { visible?: number } }).__tap.visible !== undefined,
    null,
    {
      polling: "raf",
      timeout: 30_000,
    },
  );
  // The key goes where focus is; a dialog that did not put it in a field needs the field tapped first.
  const focused = await page.evaluate(() => document.activeElement?.matches("input, textarea") ?? false);
  if (!focused)
    await page
      .locator(
        'dialog[open] input[type="email"], [role="dialog"] input[type="email"], [role="dialog"] input[name="email"]',
      )
      .first()
      .tap();
  await page.keyboard.press("a");
  await page.waitForFunction(
    () => (window as unknown as { __tap: { input?: number } }).__tap.input !== undefined,
    null,
    {
      timeout: 30_000,
    },
  );
  const t = await page.evaluate(
    () => (window as unknown as { __tap: { down: number; visible: number; input: number } }).__tap,
  );
  return { visible: t.visible - t.down, usable: t.input - t.down };
}

const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${Math.round(value)} ms`;

const ours = await serve(DIST, false);
const spa = await serve(SPA, true);
const found = await findChromium();
const browser = await chromium.launch({
  args: CHROMIUM_ARGS,
  ...(found?.executablePath ? { executablePath: found.executablePath } : {}),
});
const results = new Map<string, Array<{ visible: number; usable: number }>>();
try {
  for (let i = 0; i < RUNS; i++) {
    for (const [site, base, opener] of [
      ["this site", ours.base, /^Join the Waitlist$/],
      ["seed-style SPA", spa.base, /^Request early access$/],
    ] as const) {
      for (const hover of [false, true]) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
          hasTouch: true,
        });
        const page = await context.newPage();
        const key = `${site}|${hover ? "after a 300 ms hover" : "cold tap"}`;
        const list = results.get(key) ?? [];
        const result = await run(page, base, opener, hover).catch(async (error: unknown) => {
          const state = await page.evaluate(() => ({
            tap: (window as unknown as { __tap: unknown }).__tap,
            dialogs: Array.from(document.querySelectorAll('dialog[open], [role="dialog"]')).map((d) =>
              d.outerHTML.slice(0, 300),
            ),
          }));
          throw new Error(`${key}: ${String(error)}\n${JSON.stringify(state)}`);
        });
        list.push(result);
        results.set(key, list);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  ours.server.close();
  spa.server.close();
}

const rows = [...results].map(([key, list]) => {
  const [site, how] = key.split("|");
  const visible = list.map((r) => r.visible);
  const usable = list.map((r) => r.usable);
  return `| ${site} | ${how} | ${ms(quantile(visible, 0.5))} | ${ms(quantile(visible, 0.75))} | ${ms(quantile(usable, 0.5))} | ${ms(quantile(usable, 0.75))} |`;
});
const table = [
  "## The tap (`npm run bench:tap`)",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)}: Chromium under the conditions of Lighthouse's mobile preset (412×823`,
  "touch, 150 ms round trip, 1.6 Mbps down, CPU 4× slower), each run a new context (nothing cached), the tap 1.5 s",
  `after load; ${RUNS} runs of each, the two sites interleaved. Times from the tap (pointerdown) to the first frame`,
  "with the dialog's e-mail field on screen, and to the first keystroke accepted in the dialog.",
  "",
  "| site | tap | visible, median | visible, p75 | usable, median | usable, p75 |",
  "| --- | --- | ---: | ---: | ---: | ---: |",
  ...rows,
].join("\n");
console.log(table);
if (DIST === "dist") writeSection("tap", table);
