/** A statement's parameters by name (src/server/db/params.ts): numbered as first asked, values in that order. */
import { describe, expect, it } from "vitest";
import { namedParams } from "../../src/server/db/params";

describe("namedParams", () => {
  it("numbers each name once, after the names taken, and lists values in that order", () => {
    const p = namedParams<string>(["client", "window"]);
    expect(`${p.$("email", "text")} ${p.$("keys", "text[]")} ${p.$("email")} ${p.$("window")}`).toBe(
      "$3::text $4::text[] $3 $2",
    );
    expect(p.values({ keys: ["k"], email: "a@example.com", window: "w", client: "c" })).toEqual([
      "c",
      "w",
      "a@example.com",
      ["k"],
    ]);
  });

  it("refuses a value missing, and one name cast two ways (two values under one name)", () => {
    const p = namedParams();
    p.$("sealed", "text");
    expect(() => p.values({})).toThrow('No value for the statement\'s parameter "sealed"');
    expect(() => p.$("sealed", "boolean")).toThrow('Parameter "sealed" cast as text and boolean');
  });
});
