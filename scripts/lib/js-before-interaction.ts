/**
 * JavaScript a visitor downloads before touching anything: each path of a build served as `npm start` serves
 * it (compressed; `base` from serve-build.ts), opened in Chromium at a desktop and a mobile viewport and left alone for its load
 * plus `idleMs`. Counts every script response's bytes as transferred (compressed) plus the page's inline
 * scripts (gzip). What loads later (the dialog on intent, the FAQ when scrolled to) is not counted.
 */
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_HINT, findChromium, TEST_CHROMIUM_ARGS } from "./chromium";

export interface JsBeforeInteraction {
  page: string;
  viewport: "desktop" | "mobile";
  bytes: number;
  files: string[];
}

const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  mobile: { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
} as const;

async function measure(page: Page, url: string, idleMs: number) {
  const scripts: Array<Promise<{ url: string; bytes: number }>> = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push(
      response
        .request()
        .sizes()
        .then((sizes) => ({ url: response.url(), bytes: sizes.responseBodySize })),
    );
  });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(idleMs);
  const inline = await page.$$eval("script:not([src])", (nodes) =>
    nodes.map((node) => node.textContent ?? "").join("\n"),
  );
  const external = await Promise.all(scripts);
  return {
    bytes: external.reduce((sum, s) => sum + s.bytes, 0) + (inline ? gzipSync(inline, { level: 9 }).length : 0),
    files: external.map((s) => new URL(s.url).pathname),
  };
}

export async function measureJsBeforeInteraction(
  base: string,
  paths: string[],
  idleMs = 5000,
): Promise<JsBeforeInteraction[]> {
  const found = await findChromium("headless-shell");
  if (!found) throw new Error(CHROMIUM_HINT);
  const browser = await chromium.launch({
    args: TEST_CHROMIUM_ARGS,
    ...(found.executablePath ? { executablePath: found.executablePath } : {}),
  });
  try {
    const runs = Object.entries(VIEWPORTS).flatMap(([viewport, options]) =>
      paths.map(async (path) => {
        const context = await browser.newContext(options);
        try {
          const result = await measure(await context.newPage(), `${base}${path}`, idleMs);
          return { page: path, viewport: viewport as JsBeforeInteraction["viewport"], ...result };
        } finally {
          await context.close();
        }
      }),
    );
    return await Promise.all(runs);
  } finally {
    await browser.close();
  }
}
