/**
 * `npm run waitlist -- doctor` (issue 53, point 3): every setting ✓ or ✗ with what it is for and what to do, then the
 * live checks against real parts (the embedded database, PostgreSQL at 127.0.0.1:5432, the SMTP server of
 * tests/support/smtp.ts, a webhook receiver), exit 0 or 1, `--json`, and never a secret's value.
 */
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/server/config";
import { columnsOf, parseDataKey } from "../../../src/server/data-key";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { checkSetup, renderText } from "../../../src/server/setup";
import { migratedDataDir } from "../../support/helpers";
import { createMigratedDatabase, postgresReachable } from "../../support/postgres";
import { startSmtp, type TestSmtp } from "../../support/smtp";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver";

const run = promisify(execFile);
type Failure = Error & { code: number; stdout: string; stderr: string };

/** The CLI in a child process with exactly this environment (nothing of the test runner's). */
const doctor = (env: Record<string, string>, ...args: string[]) =>
  run("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", "doctor", ...args], {
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Failure) => error,
  );

const SERVER_SECRET = "c2VydmVyLXNlY3JldC1mb3ItZG9jdG9yLXRlc3RzLTAxMjM0NTY3";
const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const OTHER_KEY = "HxwdGhsYGRYXFBUSExARDg8MDQoLCAkGBwQFAgMAAQ8=";
const SMTP_PASSWORD = "smtp-pass-word-9f8e7d";
const ADMIN_TOKEN = "doctor-admin-token-0123456789abcdef0123";
const REDEEM_TOKEN = "doctor-redeem-token-0123456789abcdef012";
const WEBHOOK_SECRET = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

/** The lines of the text report that name `name`: its row and the line under it. */
const rowOf = (text: string, name: string) => {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => line.startsWith(`  ✓ ${name} `) || line.startsWith(`  ✗ ${name} `));
  return at < 0 ? [] : lines.slice(at, at + 2).map((line) => line.trim().replace(/\s{2,}/g, "  "));
};

const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

describe("on a fresh embedded database with nothing set", () => {
  const dataDir = migratedDataDir("doctor-fresh-");

  it("lists the three required settings to make, in the words the console uses, and exits 1", async () => {
    const result = await doctor({ DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(rowOf(result.stdout, "SERVER_SECRET")).toEqual([
      "✗ SERVER_SECRET  The root of every key the server derives (invitation codes, sign-in, rate limits).",
      "→ Invitation codes on status pages are off, and a deployed site's background jobs (updates, waves) do not start; set SERVER_SECRET to `openssl rand -base64 32`. (docs/deploying.md#server_secret)",
    ]);
    expect(rowOf(result.stdout, "DATA_KEY")[0]).toBe("✗ DATA_KEY  Seals names, addresses and answers at rest.");
    expect(rowOf(result.stdout, "ADMIN_EMAILS, WAITLIST_ADMIN_TOKEN")[1]).toBe(
      "→ Nobody can sign in: set ADMIN_EMAILS with mail, or WAITLIST_ADMIN_TOKEN (openssl rand -hex 32). (docs/deploying.md#signing-in-to-the-console)",
    );
    expect(rowOf(result.stdout, "RATE_LIMIT_MAX")).toEqual([
      "✓ RATE_LIMIT_MAX  Free sign-ups per network per window.",
      "10 (the default).",
    ]);
    expect(result.stdout).toContain(`  ✓ database`);
    expect(result.stdout).toMatch(/✓ migrations +Current: \d+ migrations applied\.\n/);
    expect(result.stdout).toMatch(/– SMTP +Not tried: mail is off\.\n/);
    expect(result.stdout).toContain(
      "Not ready: 3 required settings to make. Step by step: docs/deploying.md#the-first-deploy-step-by-step\n",
    );
    expect(result.stderr).toBe("");
  }, 60_000);
});

describe("with a number it cannot read", () => {
  const dataDir = migratedDataDir("doctor-bad-number-");

  it("lists it under Required, in config's own line, and is not ready", async () => {
    const report = await checkSetup(readConfig({ DATA_DIR: dataDir, RATE_LIMIT_MAX: "ten" }), openPgliteDb);
    expect(report.settings.find((f) => f.name === "RATE_LIMIT_MAX")).toEqual({
      name: "RATE_LIMIT_MAX",
      level: "required",
      ok: false,
      does: "Free sign-ups per network per window.",
      say: 'RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).',
      docs: "everything-else",
    });
    expect(report.ok).toBe(false);
    const text = renderText(report);
    expect(text.indexOf("RATE_LIMIT_MAX")).toBeLessThan(text.indexOf("Recommended"));
  });
});

const reachable = await postgresReachable();

describe.skipIf(!reachable)("against PostgreSQL, SMTP and a webhook receiver", () => {
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let smtp: TestSmtp;
  let receiver: WebhookReceiver;
  const query = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    database = await createMigratedDatabase("doctor");
    smtp = await startSmtp();
    receiver = await startWebhookReceiver(WEBHOOK_SECRET);
    // One sign-up sealed under DATA_KEY, as the site writes it.
    const keys = { current: parseDataKey(DATA_KEY), previous: null };
    const row = columnsOf(keys, {
      name: "Ada",
      email: "ada@example.com",
      message: null,
      organization: null,
      why: null,
      connect: null,
    });
    await query("INSERT INTO waitlist (email, key_id, sealed) VALUES ($1, $2, $3)", [
      row.email,
      row.key_id,
      row.sealed,
    ]);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await smtp?.close();
    await database?.drop();
  });

  const everything = () => ({
    DATABASE_URL: database.url,
    SERVER_SECRET,
    DATA_KEY,
    SMTP_URL: smtp.url.replace("smtp://", `smtp://doctor:${SMTP_PASSWORD}@`),
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    ADMIN_EMAILS: "ops@noosphere.test",
    WAITLIST_ADMIN_TOKEN: ADMIN_TOKEN,
    INVITE_REDEEM_TOKEN: REDEEM_TOKEN,
    SITE_URL: "https://noosphere.test",
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET,
  });

  it("with everything set: every required ✓, every check ✓, exit 0, and no value of a secret", async () => {
    const result = await doctor(everything());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("✗");
    expect(result.stdout).toMatch(/✓ database +PostgreSQL \(DATABASE_URL\) answers\.\n/);
    expect(result.stdout).toMatch(/✓ DATA_KEY +Opens every sealed row sampled \(1\)\.\n/);
    expect(result.stdout).toMatch(
      new RegExp(`✓ SMTP +127\\.0\\.0\\.1:${smtp.port} answers EHLO; does not offer STARTTLS: mail and the password`),
    );
    expect(result.stdout).toMatch(/✓ webhook +http:\/\/127\.0\.0\.1:\d+ answers HEAD with \d{3}\.\n/);
    expect(result.stdout).toMatch(
      /✓ SITE_URL and sender +https:\/\/noosphere\.test is https:\/\/; mail comes from noosphere\.test, the same domain\.\n/,
    );
    expect(result.stdout).toContain("Ready: nothing required is missing or failing.\n");
    // Nothing was sent: the SMTP server was only greeted.
    expect(smtp.messages).toHaveLength(0);
    for (const secret of [
      SERVER_SECRET,
      DATA_KEY,
      SMTP_PASSWORD,
      ADMIN_TOKEN,
      REDEEM_TOKEN,
      WEBHOOK_SECRET,
      "unused",
    ]) {
      expect(result.stdout).not.toContain(secret);
    }
    expect(result.stdout).not.toContain("ops@noosphere.test");
    expect(result.stdout).not.toContain("/hooks");
  }, 60_000);

  it("--json: ok, every setting with its level and docs, every check; the same verdict", async () => {
    const result = await doctor(everything(), "--json");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      settings: Array<Record<string, unknown>>;
      checks: Array<Record<string, unknown>>;
    };
    expect(report.ok).toBe(true);
    expect(report.settings[1]).toEqual({
      name: "SERVER_SECRET",
      level: "required",
      ok: true,
      does: "The root of every key the server derives (invitation codes, sign-in, rate limits).",
      say: "Set.",
      docs: "docs/deploying.md#server_secret",
    });
    expect(report.settings.map((s) => s.level).slice(0, 7)).toEqual([
      "required",
      "required",
      "required",
      "required",
      "recommended",
      "recommended",
      "recommended",
    ]);
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ["database", true],
      ["migrations", true],
      ["DATA_KEY", true],
      ["SMTP", true],
      ["webhook", true],
      ["SITE_URL and sender", true],
    ]);
    for (const secret of [SERVER_SECRET, DATA_KEY, SMTP_PASSWORD, ADMIN_TOKEN, WEBHOOK_SECRET]) {
      expect(result.stdout).not.toContain(secret);
    }
  }, 60_000);

  it("with an SMTP port that refuses: SMTP ✗ naming the host and the cause, and not ready", async () => {
    const port = await closedPort();
    const report = await checkSetup(
      readConfig({ ...everything(), SMTP_URL: `smtp://doctor:${SMTP_PASSWORD}@127.0.0.1:${port}` }),
      openPgliteDb,
    );
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === "SMTP")).toEqual({
      name: "SMTP",
      ok: false,
      say: `127.0.0.1:${port} does not answer EHLO: ECONNREFUSED. Check SMTP_URL's host and port.`,
      blocking: true,
    });
    expect(renderText(report)).toContain("Not ready: 1 live check failing.");
  });

  it("with a migration missing: names it, and not ready", async () => {
    await query("DELETE FROM netlify.migrations WHERE name = '0005_server_secret'");
    try {
      const report = await checkSetup(readConfig(everything()), openPgliteDb);
      expect(report.checks.find((c) => c.name === "migrations")?.say).toBe(
        "1 migration missing (0005_server_secret): run npm run db:migrate, or deploy again on Netlify Database.",
      );
      expect(report.ok).toBe(false);
    } finally {
      await query("INSERT INTO netlify.migrations (name) VALUES ('0005_server_secret')");
    }
  });

  it("with a DATA_KEY that is not the rows' key: says how many of those sampled it cannot open", async () => {
    const report = await checkSetup(readConfig({ ...everything(), DATA_KEY: OTHER_KEY }), openPgliteDb);
    const check = report.checks.find((c) => c.name === "DATA_KEY");
    expect(check?.ok).toBe(false);
    expect(check?.say).toMatch(
      /^Does not open 1 of 1 sealed rows sampled \(key [0-9a-f]+\): set the key they were sealed with \(while rotating, the old one as DATA_KEY_PREVIOUS\)\.$/,
    );
    expect(report.ok).toBe(false);
  });

  it("with a sender on another domain than SITE_URL: says why, without failing the setup", async () => {
    const report = await checkSetup(readConfig({ ...everything(), MAIL_FROM: "hello@mailer.example" }), openPgliteDb);
    expect(report.checks.find((c) => c.name === "SITE_URL and sender")).toEqual({
      name: "SITE_URL and sender",
      ok: false,
      say: "Mail comes from mailer.example but the site is noosphere.test: readers and filters trust a sender on the site's domain; verify noosphere.test with your provider and send from it.",
      blocking: false,
    });
    expect(report.ok).toBe(true);
  });
});
