/**
 * `npm start` refuses a bearer token short enough to guess (issue 31, item 6), or a webhook setting it cannot use
 * (issue 35): one line per variable, naming it and how to make a good one, exit code 1, and no database opened. The real server (scripts/serve.ts) in a child process.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDataDir } from "../support/helpers";

it("stops at once, one line per token too short", async () => {
  const dataDir = join(tempDataDir("short-token-"), "never-made");
  const env = {
    ...process.env,
    PORT: "0",
    DATABASE_URL: "",
    DATA_DIR: dataDir,
    WAITLIST_ADMIN_TOKEN: "letmein",
    INVITE_REDEEM_TOKEN: "0123456789abcdef0123456789abcde",
  };
  const child = spawn("node_modules/.bin/node", ["--import", "tsx", "scripts/serve.ts"], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  expect(code).toBe(1);
  expect(stderr).toBe(
    "WAITLIST_ADMIN_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.\n" +
      "INVITE_REDEEM_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.\n",
  );
  expect(stdout).toBe("");
  expect(existsSync(dataDir)).toBe(false);
}, 60_000);

it("stops at once, one line, for a webhook secret or URL that cannot be used", async () => {
  const dataDir = join(tempDataDir("bad-webhook-"), "never-made");
  const env = {
    ...process.env,
    PORT: "0",
    DATABASE_URL: "",
    DATA_DIR: dataDir,
    WEBHOOK_URL: "https://crm.example.com/hooks",
    WEBHOOK_SECRET: "whsec_c2hvcnQ=",
  };
  const child = spawn("node_modules/.bin/node", ["--import", "tsx", "scripts/serve.ts"], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  expect(code).toBe(1);
  expect(stderr).toBe(
    "WEBHOOK_SECRET must be whsec_ followed by at least 24 random bytes in base64: make one with `echo whsec_$(openssl rand -base64 32)`.\n",
  );
  expect(stdout).toBe("");
  expect(existsSync(dataDir)).toBe(false);
}, 60_000);
