import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";

export interface PageWeight {
  page: string;
  html: number;
  css: number;
  js: number;
  /** Every JS file the page can load (entry scripts, islands, renderers and their static imports). */
  jsFiles: string[];
  /** Scripts in <head> that block parsing (no async, defer or type=module). */
  blockingHeadScripts: number;
}

const gz = (buffer: Buffer | string) => gzipSync(buffer, { level: 9 }).length;

/** Follows static `import … from "./x.js"` edges between built chunks. */
function withImports(root: string, files: Set<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(root, file), "utf8");
    for (const match of source.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) {
      const target = match[1] as string;
      const path = target.startsWith("/") ? target.slice(1) : relative(root, resolve(root, dirname(file), target));
      queue.push(path);
    }
  }
  return seen;
}

/** Gzip weight of every HTML page in `root` and of the CSS and JS it can load. */
export function measurePages(root = "dist"): PageWeight[] {
  const pages = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html"));
  return pages.sort().map((page) => {
    const html = readFileSync(join(root, page), "utf8");
    const local = (url: string) => url.replace(/^\//, "");
    const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => local(m[1] as string));
    const entries = new Set<string>([
      ...[...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => local(m[1] as string)),
      ...[...html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)].map((m) => local(m[1] as string)),
    ]);
    const jsFiles = [...withImports(root, entries)].sort();
    const inlineJs = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
    const head = html.slice(0, html.indexOf("</head>"));
    const blockingHeadScripts = [...head.matchAll(/<script([^>]*)>/g)].filter(
      (m) => /\bsrc=/.test(m[1] as string) && !/\b(async|defer|type="module")/.test(m[1] as string),
    ).length;
    return {
      page,
      html: gz(html),
      css: css.reduce((sum, file) => sum + gz(readFileSync(join(root, file))), 0),
      js:
        jsFiles.reduce((sum, file) => sum + gz(readFileSync(join(root, file))), 0) +
        (inlineJs.length ? gz(inlineJs.join("\n")) : 0),
      jsFiles,
      blockingHeadScripts,
    };
  });
}
