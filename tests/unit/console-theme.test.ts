/**
 * The console wears the site's tokens: src/server/console/ui/theme.ts must be global.css's @theme block, value for
 * value. UPDATE_DOCS=1 rewrites the copy from the block.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { THEME_TOKENS } from "../../src/server/console/ui/theme";

const THEME_FILE = new URL("../../src/server/console/ui/theme.ts", import.meta.url);

function tokensOf(css: string): Record<string, string> {
  const block = /@theme \{([\s\S]*?)\n\}/.exec(css)?.[1] ?? "";
  return Object.fromEntries(
    [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value?.replace(/\s+/g, " ").trim()]),
  );
}

describe("the console's theme", () => {
  const site = tokensOf(readFileSync(new URL("../../src/styles/global.css", import.meta.url), "utf8"));

  it("reads the site's tokens (the parse finds the brand colour and the card radius)", () => {
    expect(site["--color-brand-700"]).toBe("#4b2fc9");
    expect(site["--radius-card"]).toBe("1.25rem");
  });

  it("is the site's @theme, token for token", () => {
    if (process.env["UPDATE_DOCS"]) {
      const text = readFileSync(THEME_FILE, "utf8");
      const head = text.slice(0, text.indexOf("export const"));
      const body = Object.entries(site)
        .map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)},`)
        .join("\n");
      writeFileSync(
        THEME_FILE,
        `${head}export const THEME_TOKENS: Readonly<Record<string, string>> = {\n${body}\n};\n`,
      );
      return;
    }
    expect(THEME_TOKENS).toEqual(site);
  });
});
