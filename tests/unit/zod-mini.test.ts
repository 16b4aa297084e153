/**
 * The function's validator takes zod/mini's parts by path (src/lib/waitlist/zod-mini.ts says why): they must be
 * the very functions the package exports, from the project's one zod, not a copy or another version.
 */
import { describe, expect, it } from "vitest";
import * as packaged from "zod/mini";
import * as byPath from "../../src/lib/waitlist/zod-mini";

describe("zod/mini by path", () => {
  it.each(["email", "object", "optional", "refine", "string", "trim"] as const)("%s is the package's own", (name) => {
    expect(byPath[name]).toBe(packaged[name]);
  });
});
