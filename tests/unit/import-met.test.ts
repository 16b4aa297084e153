/**
 * The addresses an import has met (src/server/import/met.ts): the first part and line of each, found again for
 * a second row with it, through the table's growth, and never for an address only partly alike.
 */
import { createHmac } from "node:crypto";
import { expect, it } from "vitest";
import { AddressesMet } from "../../src/server/import/met";

/** A key shaped as address_key is (base64url of an HMAC-SHA256). */
const keyOf = (address: string) => createHmac("sha256", "test").update(address).digest("base64url");

it("names the part and line that first had an address, through every growth of the table", () => {
  const met = new AddressesMet();
  let found = 0;
  for (let line = 2; line < 100_002; line++) if (met.firstOrKeep(keyOf(`p${line}@example.com`), 0, line)) found++;
  expect(found).toBe(0);
  expect(met.firstOrKeep(keyOf("p2@example.com"), 1, 7)).toEqual({ part: 0, line: 2 });
  expect(met.firstOrKeep(keyOf("p65537@example.com"), 2, 9)).toEqual({ part: 0, line: 65_537 });
  expect(met.firstOrKeep(keyOf("p100001@example.com"), 0, 100_005)).toEqual({ part: 0, line: 100_001 });
  expect(met.firstOrKeep(keyOf("new@example.com"), 3, 4)).toBe(null);
  expect(met.firstOrKeep(keyOf("new@example.com"), 3, 5)).toEqual({ part: 3, line: 4 });
});

it("tells apart two keys alike in all but their last bits (the same slot, a different address)", () => {
  const met = new AddressesMet();
  const first = Buffer.alloc(32, 1);
  const second = Buffer.from(first);
  second[15] = 2;
  expect(met.firstOrKeep(first.toString("base64url"), 0, 2)).toBe(null);
  expect(met.firstOrKeep(second.toString("base64url"), 0, 3)).toBe(null);
  expect(met.firstOrKeep(first.toString("base64url"), 0, 4)).toEqual({ part: 0, line: 2 });
  expect(met.firstOrKeep(second.toString("base64url"), 0, 5)).toEqual({ part: 0, line: 3 });
});
