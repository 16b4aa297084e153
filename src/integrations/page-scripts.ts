import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { buildSync } from "esbuild";

/** A component's or page's own script as Astro emits it: a module file, requested as the parser meets it. */
const MODULE_SCRIPT = /<script type="module" src="(\/_astro\/[^"]+\.js)"><\/script>/g;

/**
 * Puts a page's own module scripts into one file, requested at low priority: `<script type="module"
 * fetchpriority="low">`, where the first of them was. Astro emits one file a component (the early click capture
 * and the view beacon, the font loader, the menu, a page's own), and the capture imports a chunk it shares with the
 * dialog: four requests at high priority before the first paint, each a round trip on a phone's network as
 * Lighthouse simulates it, which counted them as holding the paint up (1.03 s against 0.61 s for a page with no
 * script, issue 54). They never did: module scripts run after parsing, and no paint waits for them. One file
 * with nothing to import, at low priority, is one request the paint is not counted as waiting for; the scripts
 * run in the same order, at the same point. `bundle` gives the file's path for the list of scripts it replaces.
 */
export function mergePageScripts(html: string, bundle: (sources: string[]) => string): string {
  const sources = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1] as string);
  if (sources.length === 0) return html;
  let first = true;
  return html.replace(MODULE_SCRIPT, () => {
    if (!first) return "";
    first = false;
    return `<script type="module" fetchpriority="low" src="${bundle(sources)}"></script>`;
  });
}

/** Bundles the scripts (paths under the build folder) in order into one module file there; returns its path. */
function bundleInto(dist: string, sources: string[]): string {
  const { outputFiles } = buildSync({
    stdin: { contents: sources.map((source) => `import ".${source}";`).join("\n"), resolveDir: dist, loader: "js" },
    bundle: true,
    format: "esm",
    minify: true,
    legalComments: "none",
    write: false,
  });
  const code = outputFiles?.[0]?.text ?? "";
  const path = `/_astro/page.${createHash("sha256").update(code).digest("base64url").slice(0, 8)}.js`;
  writeFileSync(join(dist, path), code);
  return path;
}

/** After the build, gives every page one low-priority script file (see `mergePageScripts`). */
export const pageScripts = (): AstroIntegration => ({
  name: "page-scripts",
  hooks: {
    "astro:build:done": ({ dir }) => {
      const dist = fileURLToPath(dir);
      const bundles = new Map<string, string>();
      const merged = new Set<string>();
      const files = readdirSync(dist, { recursive: true, encoding: "utf8" });
      for (const file of files.filter((name) => name.endsWith(".html"))) {
        const html = readFileSync(join(dist, file), "utf8");
        const rewritten = mergePageScripts(html, (sources) => {
          for (const source of sources) merged.add(source);
          const key = sources.join("\n");
          const path = bundles.get(key) ?? bundleInto(dist, sources);
          bundles.set(key, path);
          return path;
        });
        if (rewritten !== html) writeFileSync(join(dist, file), rewritten);
      }
      // The merged files are left to nobody (a chunk they imported may still serve an island): not deployed.
      const texts = files
        .filter((name) => /\.(html|js)$/.test(name))
        .map((name) => readFileSync(join(dist, name), "utf8"));
      for (const source of merged) {
        const name = source.slice(source.lastIndexOf("/") + 1);
        if (!texts.some((text) => text.includes(name))) rmSync(join(dist, source));
      }
    },
  },
});
