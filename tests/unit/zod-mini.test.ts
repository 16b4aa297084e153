/**
 * The function's validator takes zod/mini's parts by path (src/lib/waitlist/zod-mini.ts says why): they must be
 * the very functions the package exports, from the project's one zod, not a copy or another version.
 */
import { describe, expect, it } from "vitest";
import { email, object, optional, refine, string, trim } from "zod/mini";
import * as byPath from "../../src/lib/waitlist/zod-mini";

describe("zod/mini by path", () => {
  it("gives the package's own functions", () => {
    expect([byPath.email, byPath.object, byPath.optional, byPath.refine, byPath.string, byPath.trim]).toEqual([
      email,
      object,
      optional,
      refine,
      string,
      trim,
    ]);
    expect(byPath.string).toBe(string);
  });
});
