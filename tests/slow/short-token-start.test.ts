/**
 * `npm start` refuses a bearer token or Postmark webhook password short enough to guess (issue 31, item 6; issue 48,
 * item 7), or a webhook setting it cannot use (issue 35): one line per variable, naming it and how to make a good one, exit code 1, and no database opened. The real server (scripts/serve.ts) in a child process.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDataDir } from "../support/helpers";

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
    "one line, for a webhook secret or URL that cannot be used",
    "bad-webhook-",
    { WEBHOOK_URL: "https://crm.example.com/hooks", WEBHOOK_SECRET: "whsec_c2hvcnQ=" },
    "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.\n",
  ],
])(
  "stops at once, %s",
  async (_what, prefix, settings, lines) => {
    const dataDir = join(tempDataDir(prefix), "never-made");
    const env = { ...process.env, PORT: "0", DATABASE_URL: "", DATA_DIR: dataDir, ...settings };
    const child = spawn("node_modules/.bin/node", ["--import", "tsx", "scripts/serve.ts"], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(lines);
    expect(stdout).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  },
  60_000,
);
