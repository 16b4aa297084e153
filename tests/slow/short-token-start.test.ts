/**
 * `npm start` refuses a bearer token or Postmark webhook password short enough to guess (issue 31, item 6; issue 48,
 * item 7), a webhook setting it cannot use (issue 35), or a server secret it cannot use (issue 53, item 2): one line
 * per variable, naming it and how to make a good one, exit code 1, and no database opened. The real server
 * (scripts/serve.ts) in a child process; the CLI (scripts/waitlist.ts) refuses the secret the same way, with its
 * exit code 2.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDataDir } from "../support/helpers";

const HEX_64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/** Runs `file` (scripts/…) with `args` and the environment's `settings`, to its exit. */
async function run(file: string, args: string[], settings: Record<string, string>) {
  const env = { ...process.env, PORT: "0", DATABASE_URL: "", NETLIFY_DB_URL: "", ...settings };
  const child = spawn("node_modules/.bin/node", ["--import", "tsx", file, ...args], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  return { code, stdout, stderr };
}

it.each([
  [
    "one line per token too short",
    "short-token-",
    {
      WAITLIST_ADMIN_TOKEN: "letmein",
      INVITE_REDEEM_TOKEN: "0123456789abcdef0123456789abcde",
      POSTMARK_WEBHOOK_USER: "postmark",
      POSTMARK_WEBHOOK_PASSWORD: "letmein",
    },
    "WAITLIST_ADMIN_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.\n" +
      "INVITE_REDEEM_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.\n" +
      "POSTMARK_WEBHOOK_PASSWORD is shorter than 24 characters: make one with `openssl rand -hex 16`.\n",
  ],
  [
    "one line, for a server secret too short",
    "short-secret-",
    { SERVER_SECRET: "letmein" },
    "SERVER_SECRET holds 5 bytes; it must hold at least 32 random bytes (64 hex digits or 44 base64 characters): make one with `openssl rand -base64 32`.\n",
  ],
  [
    "one line, for a server secret under two names that differ",
    "two-secrets-",
    { SERVER_SECRET: HEX_64, RATE_LIMIT_SECRET: `${HEX_64.slice(2)}00` },
    "SERVER_SECRET and RATE_LIMIT_SECRET (its old name) are both set and differ: keep SERVER_SECRET and remove RATE_LIMIT_SECRET.\n",
  ],
  [
    "one line, for a webhook secret or URL that cannot be used",
    "bad-webhook-",
    { WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: "whsec_c2hvcnQ=" },
    "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.\n",
  ],
  [
    "one line per value it cannot read, never its default (issue 53, item 5)",
    "unreadable-",
    { RATE_LIMIT_MAX: "ten", PAUSE_BOUNCE_RATE: "5%" },
    'RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).\n' +
      'PAUSE_BOUNCE_RATE is "5%", which cannot be read: it accepts a percentage from 0 to 100, such as 0.3 or 5 (unset: 5).\n',
  ],
])(
  "stops at once, %s",
  async (_what, prefix, settings, lines) => {
    const dataDir = join(tempDataDir(prefix), "never-made");
    const { code, stdout, stderr } = await run("scripts/serve.ts", [], { DATA_DIR: dataDir, ...settings });
    expect(code).toBe(1);
    expect(stderr).toBe(lines);
    expect(stdout).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  },
  60_000,
);

it.each([
  [
    "a server secret too short",
    "cli-short-secret-",
    { SERVER_SECRET: "0123456789abcdef" },
    "waitlist: SERVER_SECRET holds 8 bytes; it must hold at least 32 random bytes (64 hex digits or 44 base64 characters): make one with `openssl rand -base64 32`.\n",
  ],
  [
    "a value it cannot read",
    "cli-unreadable-",
    { RATE_LIMIT_MAX: "ten" },
    'waitlist: RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).\n',
  ],
])(
  "the CLI stops at once on %s, in one line",
  async (_what, prefix, settings, line) => {
    const dataDir = join(tempDataDir(prefix), "never-made");
    const { code, stdout, stderr } = await run("scripts/waitlist.ts", ["count"], { DATA_DIR: dataDir, ...settings });
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: "", stderr: line });
  },
  60_000,
);

it("the CLI reads RATE_LIMIT_SECRET, SERVER_SECRET's old name, and says once to rename it", async () => {
  const dataDir = join(tempDataDir("cli-old-secret-"), "never-made");
  const { code, stdout, stderr } = await run("scripts/waitlist.ts", ["count"], {
    DATA_DIR: dataDir,
    RATE_LIMIT_SECRET: HEX_64,
  });
  expect({ code, stdout, stderr }).toEqual({
    code: 0,
    stdout: `No sign-ups yet: there is no embedded database in ${dataDir}/.\n`,
    stderr: "waitlist: RATE_LIMIT_SECRET is the old name of SERVER_SECRET: rename it (the value stays the same).\n",
  });
}, 60_000);
