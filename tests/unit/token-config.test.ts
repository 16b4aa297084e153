/**
 * A bearer token too short to stand guessing is never used (issue 31, item 6): src/server/config/ records the problem, which
 * names the variable and how to make a good token; what uses the token answers 503, and npm start stops.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/server/config";

const SHORT_ADMIN = "WAITLIST_ADMIN_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.";
const SHORT_REDEEM = "INVITE_REDEEM_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.";
const HEX_64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

describe("bearer tokens in the configuration", () => {
  it.each([
    ["unset", undefined, null, null],
    ["empty", "", null, null],
    ["letmein", "letmein", null, SHORT_ADMIN],
    ["31 characters", "0123456789abcdef0123456789abcde", null, SHORT_ADMIN],
    ["31 characters and spaces around", "  0123456789abcdef0123456789abcde  ", null, SHORT_ADMIN],
    ["32 characters", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef", null],
    ["openssl rand -hex 32", HEX_64, HEX_64, null],
  ])("WAITLIST_ADMIN_TOKEN %s", (_name, value, token, problem) => {
    const config = readConfig({ WAITLIST_ADMIN_TOKEN: value });
    expect({ token: config.adminToken, problem: config.adminTokenProblem }).toEqual({ token, problem });
  });

  it.each([
    ["unset", undefined, null, null],
    ["letmein", "letmein", null, SHORT_REDEEM],
    ["31 characters", "0123456789abcdef0123456789abcde", null, SHORT_REDEEM],
    ["32 characters", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef", null],
  ])("INVITE_REDEEM_TOKEN %s", (_name, value, token, problem) => {
    const config = readConfig({ INVITE_REDEEM_TOKEN: value });
    expect({ token: config.inviteRedeemToken, problem: config.inviteRedeemTokenProblem }).toEqual({ token, problem });
  });

  it("judges each variable on its own", () => {
    const config = readConfig({ WAITLIST_ADMIN_TOKEN: HEX_64, INVITE_REDEEM_TOKEN: "letmein" });
    expect(config.adminTokenProblem).toBe(null);
    expect(config.inviteRedeemTokenProblem).toBe(SHORT_REDEEM);
  });
});
