import { describe, expect, it } from "vitest";
import { checkFaq, orderTerms, TERMS_ORDER } from "../../src/lib/content";

describe("orderTerms", () => {
  it("puts the sections in docs/brief.md's order whatever order they arrive in", () => {
    const shuffled = [...TERMS_ORDER].reverse().map((id) => ({ id }));
    expect(orderTerms(shuffled).map((e) => e.id)).toEqual([...TERMS_ORDER]);
  });

  it("names the missing and unexpected sections", () => {
    const entries = TERMS_ORDER.filter((id) => id !== "termination").map((id) => ({ id }));
    expect(() => orderTerms([...entries, { id: "refunds" }])).toThrow(
      /missing: \[termination\], unexpected: \[refunds\]/,
    );
  });
});

describe("checkFaq", () => {
  it("accepts exactly ten entries and refuses nine or eleven", () => {
    expect(checkFaq(Array.from({ length: 10 }, (_, i) => i))).toHaveLength(10);
    expect(() => checkFaq(Array.from({ length: 9 }, (_, i) => i))).toThrow(/exactly 10/);
    expect(() => checkFaq(Array.from({ length: 11 }, (_, i) => i))).toThrow(/exactly 10/);
  });
});
