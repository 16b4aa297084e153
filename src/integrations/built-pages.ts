import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

/** An integration that, after the build, rewrites every built page with `transform` (a function of its HTML alone). */
export function rewriteBuiltPages(name: string, transform: (html: string) => string): AstroIntegration {
  return {
    name,
    hooks: {
      "astro:build:done": ({ dir }) => {
        const dist = fileURLToPath(dir);
        for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
          if (!file.endsWith(".html")) continue;
          const path = join(dist, file);
          const html = readFileSync(path, "utf8");
          const rewritten = transform(html);
          if (rewritten !== html) writeFileSync(path, rewritten);
        }
      },
    },
  };
}
