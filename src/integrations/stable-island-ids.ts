import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

const ISLAND_UID = /(<astro-island\b[^>]*?\suid=")[^"]*(")/g;

/**
 * Numbers a page's islands 1, 2, 3… in the order they appear. Astro names each island by a hash that includes
 * the component's absolute path on the building machine, so the same commit built in two folders gave pages of
 * different sizes: /product's brotli body moved by about 100 bytes, enough to cross the first round trip's
 * budget in one checkout and not another. The uid is only a name (Astro's island runtime never reads it), unique
 * within its page either way.
 */
export function numberIslands(html: string): string {
  let n = 0;
  return html.replace(ISLAND_UID, (_, before: string, after: string) => `${before}${++n}${after}`);
}

/** After the build, gives every page's islands the same names whatever folder it was built in. */
export function stableIslandIds(): AstroIntegration {
  return {
    name: "stable-island-ids",
    hooks: {
      "astro:build:done": ({ dir }) => {
        const dist = fileURLToPath(dir);
        for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
          if (!file.endsWith(".html")) continue;
          const path = join(dist, file);
          const html = readFileSync(path, "utf8");
          const numbered = numberIslands(html);
          if (numbered !== html) writeFileSync(path, numbered);
        }
      },
    },
  };
}
