/**
 * JavaScript a visitor downloads before touching anything: each page of the build, served as `npm start`
 * serves it (compressed), opened in Chromium at a desktop and a mobile viewport and left alone for its load
 * plus `idleMs`. Counts every script response's bytes as transferred (compressed) plus the page's inline
 * scripts (gzip). What loads later (the dialog on intent, the FAQ when scrolled to) is not counted.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { createSiteHandler, type HeaderRule } from "../../src/local-netlify/site-server";
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
  publish: string,
  headerRules: HeaderRule[],
  paths: string[],
  idleMs = 5000,
): Promise<JsBeforeInteraction[]> {
  const found = await findChromium("headless-shell");
  if (!found) throw new Error(CHROMIUM_HINT);
  const handler = createSiteHandler({ publish, headerRules });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    server.close();
  }
}
