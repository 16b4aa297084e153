/**
 * SERVER_SECRET, the root of every key the server derives (issue 53, item 2): at least 32 random bytes, counted as
 * written (hex two digits a byte, base64 four characters to three, else UTF-8 bytes); RATE_LIMIT_SECRET, its old
 * name, still read; both set and different refused. serverSecretStatus says which, never the value.
 */
import { describe, expect, it } from "vitest";
import { readConfig, serverSecretStatus } from "../../src/server/config";

const HEX_64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const BASE64_44 = "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is1V1sFbDwCgg=";
const HEX_62 = HEX_64.slice(0, 62);
const BASE64_40 = "n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is1V1sFbDw";
const SHORT = (name: string, bytes: number) =>
  `${name} holds ${bytes} bytes; it must hold at least 32 random bytes (64 hex digits or 44 base64 characters): make one with \`openssl rand -base64 32\`.`;
const BOTH =
  "SERVER_SECRET and RATE_LIMIT_SECRET (its old name) are both set and differ: keep SERVER_SECRET and remove RATE_LIMIT_SECRET.";

describe("SERVER_SECRET in the configuration", () => {
  it.each([
    ["unset", {}, null, "missing", null],
    ["empty", { SERVER_SECRET: " " }, null, "missing", null],
    ["openssl rand -hex 32 (64 digits: 32 bytes)", { SERVER_SECRET: HEX_64 }, HEX_64, "set", null],
    ["openssl rand -base64 32 (44 characters: 32 bytes)", { SERVER_SECRET: BASE64_44 }, BASE64_44, "set", null],
    ["62 hex digits (31 bytes)", { SERVER_SECRET: HEX_62 }, null, "too short", SHORT("SERVER_SECRET", 31)],
    ["40 base64url characters (30 bytes)", { SERVER_SECRET: BASE64_40 }, null, "too short", SHORT("SERVER_SECRET", 30)],
    ["letmein", { SERVER_SECRET: "letmein" }, null, "too short", SHORT("SERVER_SECRET", 5)],
    [
      "32 bytes of text with spaces",
      { SERVER_SECRET: "a phrase of exactly 32 bytes ok!" },
      "a phrase of exactly 32 bytes ok!",
      "set",
      null,
    ],
    [
      "31 bytes of text with spaces",
      { SERVER_SECRET: "a phrase of exactly 31 bytes ok" },
      null,
      "too short",
      SHORT("SERVER_SECRET", 31),
    ],
    ["only the old name", { RATE_LIMIT_SECRET: HEX_64 }, HEX_64, "legacy name", null],
    ["the old name, too short", { RATE_LIMIT_SECRET: "short" }, null, "too short", SHORT("RATE_LIMIT_SECRET", 3)],
    ["both names, the same value", { SERVER_SECRET: HEX_64, RATE_LIMIT_SECRET: HEX_64 }, HEX_64, "set", null],
    ["both names, different values", { SERVER_SECRET: HEX_64, RATE_LIMIT_SECRET: BASE64_44 }, null, "conflict", BOTH],
  ])("%s", (_name, env, secret, state, problem) => {
    const config = readConfig(env);
    expect({
      secret: config.serverSecret,
      state: config.serverSecretState,
      problem: config.serverSecretProblem,
    }).toEqual({
      secret,
      state,
      problem,
    });
  });

  it("says the state and a line, never the value", () => {
    expect(serverSecretStatus(readConfig({ SERVER_SECRET: HEX_64 }))).toEqual({
      state: "set",
      variable: "SERVER_SECRET",
      line: null,
    });
    expect(serverSecretStatus(readConfig({ RATE_LIMIT_SECRET: HEX_64 }))).toEqual({
      state: "legacy name",
      variable: "RATE_LIMIT_SECRET",
      line: "RATE_LIMIT_SECRET is the old name of SERVER_SECRET: rename it (the value stays the same).",
    });
    expect(serverSecretStatus(readConfig({}))).toEqual({
      state: "missing",
      variable: null,
      line: "SERVER_SECRET is not set: status pages offer no invite code and a deployed site's background jobs (updates, waves) do not start. Make one with `openssl rand -base64 32`.",
    });
    expect(serverSecretStatus(readConfig({ SERVER_SECRET: "letmein" }))).toEqual({
      state: "too short",
      variable: "SERVER_SECRET",
      line: SHORT("SERVER_SECRET", 5),
    });
    const shown = JSON.stringify(
      serverSecretStatus(readConfig({ SERVER_SECRET: HEX_64, RATE_LIMIT_SECRET: BASE64_44 })),
    );
    expect(shown).not.toContain(HEX_64);
    expect(shown).not.toContain(BASE64_44);
  });
});
