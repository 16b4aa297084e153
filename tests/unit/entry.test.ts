import { describe, expect, it } from "vitest";
import { buildMessage, toEntry } from "../../src/server/entry";

describe("buildMessage", () => {
  const parts = { organization: "Acme", why: "Research", connect: "Beta tester" };
  const expected = { organization: "Organization: Acme", why: "Why: Research", connect: "Connect: Beta tester" };
  const keys = ["organization", "why", "connect"] as const;

  // Every one of the eight combinations of present and absent parts.
  const combinations = Array.from({ length: 8 }, (_, mask) => keys.filter((_, i) => mask & (1 << i)));
  it.each(combinations.map((present) => [present.length ? present.join(" + ") : "no parts", present] as const))(
    "with %s",
    (_name, present) => {
      const message = buildMessage(Object.fromEntries(present.map((key) => [key, parts[key]])));
      if (present.length === 0) expect(message).toBeNull();
      else expect(message).toBe(present.map((key) => expected[key]).join("\n\n"));
    },
  );

  it("omits empty parts and keeps line breaks inside a part", () => {
    expect(buildMessage({ organization: "", why: "line one\nline two", connect: "" })).toBe("Why: line one\nline two");
  });
});

describe("toEntry", () => {
  it("stores an empty name as null, and the (already trimmed) values as they are", () => {
    expect(toEntry({ name: "", email: "ada@example.com" })).toEqual({
      name: null,
      email: "ada@example.com",
      message: null,
      organization: null,
      why: null,
      connect: null,
      termsVersion: "d32ad6715e8da973",
    });
    expect(toEntry({ name: "Ada", email: "ada@example.com", why: "x" })).toEqual({
      name: "Ada",
      email: "ada@example.com",
      message: "Why: x",
      organization: null,
      why: "x",
      connect: null,
      termsVersion: "d32ad6715e8da973",
    });
  });

  it("keeps each answer on its own, so no answer can pass for another", () => {
    const forged = { email: "ada@example.com", why: "Because\n\nConnect: @forged" };
    const entry = toEntry(forged);
    expect(entry.message).toBe("Why: Because\n\nConnect: @forged");
    expect([entry.why, entry.connect]).toEqual(["Because\n\nConnect: @forged", null]);
  });
});
