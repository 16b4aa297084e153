/** The console's relative times (src/server/console/ui/time.ts): how long ago or how soon, in whole units, against a fixed clock. */
import { describe, expect, it } from "vitest";
import { relativeTime } from "../../src/server/console/ui/time";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
const MIN = 60_000;

describe("relativeTime", () => {
  it.each([
    [0, "under a minute ago"],
    [-59_999, "under a minute ago"],
    [30_000, "in under a minute"],
    [4 * MIN, "in 4 min"],
    [-4 * MIN - 59_000, "4 min ago"],
    [-59 * MIN, "59 min ago"],
    [60 * MIN, "in 1 h"],
    [-(47 * 60 + 59) * MIN, "47 h ago"],
    [48 * 60 * MIN, "in 2 days"],
    [-30 * 24 * 60 * MIN, "30 days ago"],
  ])("%i ms from now reads %s", (offset, words) => {
    expect(relativeTime(at(offset), NOW)).toBe(words);
  });
});
