import { describe, expect, it } from "vitest";
import { mergePageScripts } from "../../src/integrations/page-scripts";

const tag = (src: string) => `<script type="module" src="${src}"></script>`;

describe("a page's own module scripts become one low-priority file", () => {
  it("replaces them, in order, by one script where the first was", () => {
    const asked: string[][] = [];
    const html = `<head>${tag("/_astro/A.js")}${tag("/_astro/B.js")}</head><body><p>x</p>${tag("/_astro/C.js")}</body>`;
    const merged = mergePageScripts(html, (sources) => {
      asked.push(sources);
      return "/_astro/page.abcdefgh.js";
    });
    expect(merged).toBe(
      '<head><script type="module" fetchpriority="low" src="/_astro/page.abcdefgh.js"></script></head><body><p>x</p></body>',
    );
    expect(asked).toEqual([["/_astro/A.js", "/_astro/B.js", "/_astro/C.js"]]);
  });

  it("leaves inline scripts, other origins' and a page without module scripts as they are", () => {
    const html = `<script>a()</script><script type="module">b()</script>${tag("https://cdn.example/x.js")}`;
    expect(mergePageScripts(html, () => "/never.js")).toBe(html);
  });
});
