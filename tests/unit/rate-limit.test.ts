import { describe, expect, it } from "vitest";
import { secondsUntilAccepted } from "../../src/server/http/rate-limit";

/** A 600-second window that started at 0, `elapsed` seconds ago. */
const at = (elapsed: number) => ({ start: new Date(0), windowMs: 600_000, now: elapsed * 1000 });

describe("secondsUntilAccepted: when a retry would really be accepted (allowance 2 per 600 s)", () => {
  it.each([
    // [case, elapsed s, attempts here, previous window, expected wait s]
    ["3 here, none before: the next window, once 3 × weight ≤ 1 (two thirds in)", 100, 3, 0, 900],
    ["the same at the window's last second", 599, 3, 0, 401],
    ["2 here: the retry makes 3; next window, once 1 + 2 × weight ≤ 2 (half way in)", 100, 2, 0, 800],
    ["1 here, 4 before: not here (4 × weight ≤ 0 only at the end); next window at once", 100, 1, 4, 500],
    ["0 here, 4 before: here, once 1 + 4 × (1 − t/600) ≤ 2, at t = 450", 100, 0, 4, 350],
    ["10 here: next window, once 1 + 10 × weight ≤ 2 (nine tenths in)", 100, 10, 0, 1040],
    ["allowance 1, 1 here: two windows on, when only the retry counts", 100, 1, 0, 1100, 1],
  ])("%s", (_case, elapsed, attempts, previous, expected, max = 2) => {
    expect(secondsUntilAccepted(at(elapsed), { attempts, previous }, max)).toBe(expected);
  });

  it("is never less than a second", () => {
    // Accepted at 450 s (1 + 4 × 0.25 = 2); asked at 449.9 s.
    expect(secondsUntilAccepted(at(449.9), { attempts: 0, previous: 4 }, 2)).toBe(1);
  });
});
