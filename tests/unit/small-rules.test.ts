/**
 * The small rules each kept in one home: an address given alone (src/lib/waitlist/rules.ts), a row's id and the
 * body limits (src/server/http/limits.ts), a form's one-time ticket (src/server/http/ticket.ts).
 */
import { describe, expect, it } from "vitest";
import { givenAddress } from "../../src/lib/waitlist/rules";
import { BODY_LIMITS, isId } from "../../src/server/http/limits";
import { isTicket, newTicket } from "../../src/server/http/ticket";

describe("givenAddress", () => {
  it("gives the address trimmed, as typed otherwise", () => {
    expect(givenAddress("  Ada.Lovelace+notes@Example.COM\t")).toBe("Ada.Lovelace+notes@Example.COM");
    expect(givenAddress(`${"a".repeat(243)}@example.com`)).toBe(`${"a".repeat(243)}@example.com`);
  });

  it("refuses what a sign-up would: nothing, too long, not an address", () => {
    for (const value of [
      undefined,
      "",
      "   ",
      `${"a".repeat(244)}@example.com`,
      "ada",
      "ada@example",
      "ada@@example.com",
      "ada example@example.com",
      ".ada@example.com",
      "ada@example.c",
      "ádá@example.com",
    ]) {
      expect(givenAddress(value)).toBeUndefined();
    }
  });
});

describe("isId", () => {
  it("takes 1 to 15 digits without a leading zero", () => {
    for (const text of ["1", "42", "999999999999999"]) expect(isId(text)).toBe(true);
  });

  it("refuses zero, a leading zero, signs, spaces, 16 digits and nothing", () => {
    for (const text of [undefined, "", "0", "007", "-1", "+1", " 1", "1 ", "1.0", "1e3", "1000000000000000"]) {
      expect(isId(text)).toBe(false);
    }
  });
});

describe("tickets", () => {
  it("are 22 base64url characters, new each time, and only those pass", () => {
    const one = newTicket();
    expect(one).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(isTicket(one)).toBe(true);
    expect(newTicket()).not.toBe(one);
    for (const text of [undefined, "", one.slice(1), `${one}A`, `${one.slice(1)}=`, `${one.slice(1)}/`]) {
      expect(isTicket(text)).toBe(false);
    }
  });
});

describe("BODY_LIMITS", () => {
  it("are 4 KB for a form and 16 KB for JSON", () => {
    expect(BODY_LIMITS).toEqual({ form: 4096, json: 16384 });
  });
});
