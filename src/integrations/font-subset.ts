import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import subsetFont from "subset-font";

/** Printable ASCII and Latin-1 letters: what visitors may type into the form, beyond the site's own text. */
const TYPED =
  Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).join("") +
  "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ";

/** Every character of the built pages and scripts (the dialog's and toasts' words live in the JS). */
export function siteCharacters(dist: string): string {
  const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) => /\.(html|js)$/.test(f));
  const chars = new Set(TYPED);
  for (const file of files) {
    const text = readFileSync(join(dist, file), "utf8")
      .replace(/<[^>]*>/g, " ")
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&#x([\da-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)));
    for (const char of text) if ((char.codePointAt(0) ?? 0) >= 0x20) chars.add(char);
  }
  return [...chars].join("");
}

/**
 * After the build, replaces the font in dist/ with a subset of the characters the site uses, limited to
 * the weights it uses (400–700). The file keeps its name, so the CSS and the preload link stay valid.
 */
export function fontSubset(options: { file: string; source: string }): AstroIntegration {
  return {
    name: "font-subset",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const dist = fileURLToPath(dir);
        const source = readFileSync(options.source);
        const subset = await subsetFont(source, siteCharacters(dist), {
          targetFormat: "woff2",
          variationAxes: { wght: { min: 400, max: 700 } },
        });
        writeFileSync(join(dist, options.file), subset);
        logger.info(`${options.file}: ${source.length} → ${subset.length} bytes`);
      },
    },
  };
}
