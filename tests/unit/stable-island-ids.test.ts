import { describe, expect, it } from "vitest";
import { numberIslands } from "../../src/integrations/stable-island-ids";

describe("a page's islands are named the same whatever folder built it", () => {
  it.each([
    [
      "numbers each island in page order",
      `<astro-island uid="Z2jdA37" prefix="r3" ssr></astro-island><p uid="x"></p><astro-island uid="23EToE" prefix="r5"></astro-island>`,
      `<astro-island uid="1" prefix="r3" ssr></astro-island><p uid="x"></p><astro-island uid="2" prefix="r5"></astro-island>`,
    ],
    [
      "finds the uid after other attributes",
      `<astro-island component-url="/_astro/Faq.js" uid="LjiJu"></astro-island>`,
      `<astro-island component-url="/_astro/Faq.js" uid="1"></astro-island>`,
    ],
    ["leaves a page without islands as it is", `<main uid="kept"></main>`, `<main uid="kept"></main>`],
  ])("%s", (_, html, expected) => {
    expect(numberIslands(html)).toBe(expected);
  });
});
