import { describe, expect, it } from "vitest";
import { buildMessage, toEntry } from "../../src/lib/waitlist/entry";

describe("buildMessage", () => {
  const parts = { organization: "Acme", why: "Research", connect: "Beta tester" };
  const expected = { organization: "Organization: Acme", why: "Why: Research", connect: "Connect: Beta tester" };
  const keys = ["organization", "why", "connect"] as const;

  // Every one of the eight combinations of present and absent parts.
  for (let mask = 0; mask < 8; mask++) {
    const present = keys.filter((_, i) => mask & (1 << i));
    it(`with ${present.length ? present.join(" + ") : "no parts"}`, () => {
      const input = Object.fromEntries(present.map((key) => [key, parts[key]]));
      const message = buildMessage(input);
      if (present.length === 0) expect(message).toBeNull();
      else expect(message).toBe(present.map((key) => expected[key]).join("\n\n"));
    });
  }

  it("omits blank parts and keeps line breaks inside a part", () => {
    expect(buildMessage({ organization: "  ", why: "line one\nline two", connect: "" })).toBe(
      "Why: line one\nline two",
    );
  });
});

describe("toEntry", () => {
  it("stores a blank name as null and the trimmed email", () => {
    expect(toEntry({ name: "  ", email: " ada@example.com " })).toEqual({
      name: null,
      email: "ada@example.com",
      message: null,
    });
    expect(toEntry({ name: "Ada", email: "ada@example.com", why: "x" })).toEqual({
      name: "Ada",
      email: "ada@example.com",
      message: "Why: x",
    });
  });
});
