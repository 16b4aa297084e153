import type { AstroIntegration } from "astro";
import { rewriteBuiltPages } from "./built-pages";

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
export const stableIslandIds = (): AstroIntegration => rewriteBuiltPages("stable-island-ids", numberIslands);
