/**
 * Every way a deployment reaches Postgres, end to end on the real PostgreSQL at 127.0.0.1:5432: the function
 * through DATABASE_URL over node-postgres and over Neon's HTTP protocol (the real `neon()` driver in front of
 * a test-only `/sql` server), through Netlify Database's own client (NETLIFY_DB_URL), previews on each, and
 * the operators' commands (db:migrate, the CLI) with their one-line failures. REQUIRE_POSTGRES=1 (CI) makes
 * it mandatory.
 * Longer than 150 lines: every path shares one PostgreSQL database and one Neon proxy.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Context } from "@netlify/functions";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import handler from "../../../netlify/functions/waitlist";
import { closeStore } from "../../../src/server/app/instance";
import { resetConfig } from "../../../src/server/config";
import { fakeContext, post } from "../../support/helpers";
import { type SqlProxy, startSqlProxy } from "../../support/neon-sql-proxy";
import { createMigratedDatabase, createTestDatabase, postgresReachable } from "../../support/postgres";

const reachable = await postgresReachable();
const run = promisify(execFile);
type Failure = { code: number; stdout: string; stderr: string };
const script = (file: string, env: Record<string, string>, ...args: string[]) =>
  run("node_modules/.bin/node", ["--import", "tsx", file, ...args], {
    env: { ...process.env, DATABASE_URL: "", NETLIFY_DB_URL: "", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Failure) => error,
  );

describe.skipIf(!reachable)("Postgres paths on PostgreSQL 15", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: SqlProxy;
  const rows = async (email: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query("SELECT name, email, message FROM waitlist WHERE email = $1", [email])).rows;
    } finally {
      await client.end();
    }
  };
  /** Points the function at a database by environment, as a deployment would. */
  const total = async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return Number((await client.query("SELECT count(*)::int AS n FROM waitlist")).rows[0].n);
    } finally {
      await client.end();
    }
  };

  const configure = async (env: Record<string, string>) => {
    vi.unstubAllEnvs();
    for (const name of [
      "DATABASE_URL",
      "DATABASE_DRIVER",
      "NETLIFY_DB_URL",
      "NETLIFY_DB_DRIVER",
      "NEON_FETCH_ENDPOINT",
      "DATA_KEY",
    ]) {
      vi.stubEnv(name, env[name] ?? "");
    }
    vi.stubEnv("RATE_LIMIT_MAX", "100000");
    resetConfig();
    await closeStore();
  };

  beforeAll(async () => {
    database = await createMigratedDatabase("waitlist_paths");
    proxy = await startSqlProxy();
  }, 60_000);
  afterEach(async () => {
    vi.unstubAllEnvs();
    resetConfig();
    await closeStore();
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it("speaks Neon's documented HTTP protocol: headers and {query, params}", async () => {
    await configure({ DATABASE_URL: database.url, DATABASE_DRIVER: "neon-http", NEON_FETCH_ENDPOINT: proxy.url });
    proxy.requests.length = 0;
    const res = await handler(post({ email: "protocol@example.com", termsAccepted: true }), fakeContext());
    expect(res.status).toBe(201);
    // A new store reads the server's secret once; the sign-up itself is one request.
    expect(
      proxy.requests.map((r) => (r.body as { query: string }).query.match(/waitlist_secret|INSERT INTO waitlist/)?.[0]),
    ).toEqual(["waitlist_secret", "INSERT INTO waitlist"]);
    const request = proxy.requests[1];
    // The driver appends its application_name to the connection string.
    expect(String(request?.headers["neon-connection-string"])).toMatch(new RegExp(`^${database.url}(\\?|$)`));
    expect(request?.headers["neon-raw-text-output"]).toBe("true");
    expect(request?.headers["neon-array-mode"]).toBe("true");
    expect(request?.body).toMatchObject({ query: expect.stringContaining("INSERT INTO waitlist") });
  });

  it.each([
    ["node-postgres, chosen for a non-Neon host", {}],
    ["Neon's HTTP API, forced by DATABASE_DRIVER", { DATABASE_DRIVER: "neon-http" }],
  ])("the function stores a sign-up through DATABASE_URL over %s", async (_how, extra: Record<string, string>) => {
    await configure({ DATABASE_URL: database.url, NEON_FETCH_ENDPOINT: proxy.url, ...extra });
    const email = `url-${extra["DATABASE_DRIVER"] ?? "pg"}@example.com`;
    const res = await handler(
      post({ email: ` ${email} `, termsAccepted: true, organization: "Engines" }),
      fakeContext(),
    );
    expect(res.status).toBe(201);
    expect(await rows(email)).toEqual([{ name: null, email, message: "Organization: Engines" }]);
  });

  it("the function stores a sign-up through Netlify Database's client (NETLIFY_DB_URL, driver server)", async () => {
    await configure({ NETLIFY_DB_URL: database.url, NETLIFY_DB_DRIVER: "server" });
    const res = await handler(post({ email: "netlify-db@example.com", termsAccepted: true }), fakeContext());
    expect(res.status).toBe(201);
    expect(await rows("netlify-db@example.com")).toHaveLength(1);
  });

  it("the function stores through Netlify Database's serverless driver (NETLIFY_DB_DRIVER=serverless)", async () => {
    await configure({ NETLIFY_DB_URL: database.url, NETLIFY_DB_DRIVER: "serverless", NEON_FETCH_ENDPOINT: proxy.url });
    proxy.requests.length = 0;
    const res = await handler(post({ email: "netlify-http@example.com", termsAccepted: true }), fakeContext());
    expect(res.status).toBe(201);
    // The server's secret, read once by a new store, then the sign-up itself.
    expect(proxy.requests).toHaveLength(2);
    expect(await rows("netlify-http@example.com")).toHaveLength(1);
  });

  describe("deploy previews", () => {
    const preview = (ip: string) =>
      ({ ...fakeContext(ip), deploy: { context: "deploy-preview" } }) as unknown as Context;

    it("store nothing in their Netlify Database branch without DATA_KEY (the branch is production's copy)", async () => {
      await configure({ NETLIFY_DB_URL: database.url, NETLIFY_DB_DRIVER: "server" });
      const before = await total();
      for (const [i, email] of ["preview-a@example.com", "preview-b@example.com", "preview-c@example.com"].entries()) {
        const res = await handler(post({ email, termsAccepted: true }), preview(`10.1.1.${10 + i}`));
        expect(res.status).toBe(201);
        expect(res.headers.get("x-waitlist-dry-run")).toBe("deploy-preview");
      }
      expect(await total()).toBe(before);
    });

    it("store sign-ups, sealed, in their own Netlify Database branch given DATA_KEY", async () => {
      await configure({
        NETLIFY_DB_URL: database.url,
        NETLIFY_DB_DRIVER: "server",
        DATA_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      });
      const res = await handler(
        post({ email: "preview-branch@example.com", termsAccepted: true }),
        preview("10.1.1.1"),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get("x-waitlist-dry-run")).toBeNull();
      expect(await rows("preview-branch@example.com")).toEqual([]);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      // Stored sealed, then removed: the later commands here run without the key.
      const sealed = await client.query("DELETE FROM waitlist WHERE key_id IS NOT NULL RETURNING email");
      await client.end();
      expect(sealed.rows).toHaveLength(1);
      expect(sealed.rows[0].email).toMatch(/^hmac:[0-9a-f]{64}$/);
    });

    it("are dry runs with only a shared DATABASE_URL", async () => {
      await configure({ DATABASE_URL: database.url });
      const res = await handler(
        post({ email: "preview-shared@example.com", termsAccepted: true }),
        preview("10.1.1.2"),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get("x-waitlist-dry-run")).toBe("deploy-preview");
      expect(await rows("preview-shared@example.com")).toEqual([]);
    });
  });

  describe("operators' commands on a plain PostgreSQL URL", () => {
    it("db:migrate applies the migrations once, tracked as Netlify Database tracks them", async () => {
      const fresh = await createTestDatabase("waitlist_migrate");
      try {
        const first = await script("scripts/migrate.ts", { DATABASE_URL: fresh.url });
        expect(first.stdout).toContain(
          "db:migrate: PostgreSQL (DATABASE_URL): applied 0001_waitlist, 0002_confirmation, 0003_invitations_and_sources, 0004_admin_sessions, 0005_server_secret, 0006_answers_consent_and_sealing, 0007_mailbox_limits, 0008_console_at_scale, 0009_admin_keyed_hashes, 0010_console_wave_records, 0011_referrals_and_status, 0012_updates, 0013_webhooks_and_audit",
        );
        const again = await script("scripts/migrate.ts", { DATABASE_URL: fresh.url });
        expect(again.stdout).toContain("already up to date");
        const client = new pg.Client({ connectionString: fresh.url });
        await client.connect();
        const applied = await client.query("SELECT name FROM netlify.migrations ORDER BY name");
        await client.end();
        expect(applied.rows).toEqual([
          { name: "0001_waitlist" },
          { name: "0002_confirmation" },
          { name: "0003_invitations_and_sources" },
          { name: "0004_admin_sessions" },
          { name: "0005_server_secret" },
          { name: "0006_answers_consent_and_sealing" },
          { name: "0007_mailbox_limits" },
          { name: "0008_console_at_scale" },
          { name: "0009_admin_keyed_hashes" },
          { name: "0010_console_wave_records" },
          { name: "0011_referrals_and_status" },
          { name: "0012_updates" },
          { name: "0013_webhooks_and_audit" },
          { name: "0014_audit_actions" },
          { name: "0015_long_jobs" },
          { name: "0016_suppression" },
          { name: "0017_invite_reminder" },
          { name: "0018_console_funnel" },
          { name: "0019_console_people" },
          { name: "0020_referral_revocations" },
          { name: "0021_exact_address_suppression" },
          { name: "0022_questions" },
          { name: "0023_imports" },
          { name: "0024_visits" },
          { name: "0025_invitation_resent" },
          { name: "0026_update_drafts" },
          { name: "0027_segments" },
          { name: "0028_visit_tallies" },
          { name: "0029_tally_without_jit" },
          { name: "0030_invitable_choices" },
        ]);
      } finally {
        await fresh.drop();
      }
    }, 60_000);

    it("the CLI counts and exports", async () => {
      const count = await script("scripts/waitlist.ts", { DATABASE_URL: database.url }, "count");
      expect(count.stdout).toMatch(/^Waitlist: \d+ sign-ups in PostgreSQL \(DATABASE_URL\)/);
      // Exits 0 once its pool has closed (a wait for the sockets once ended the process early with code 13).
      expect(count.code).toBe(0);
      const csv = await script("scripts/waitlist.ts", { DATABASE_URL: database.url }, "export");
      expect(csv.code).toBe(0);
      expect(csv.stdout).toContain("netlify-db@example.com");
    }, 60_000);

    const unreachable = "postgresql://postgres:secret-pw@127.0.0.1:1/nowhere";
    it.each([
      ["scripts/migrate.ts", [], 1],
      ["scripts/waitlist.ts", ["count"], 2],
      ["scripts/waitlist.ts", ["export"], 2],
    ] as const)(
      "%s %s fails in one line naming DATABASE_URL and the cause",
      async (file, args, code) => {
        const result = await script(file, { DATABASE_URL: unreachable }, ...args);
        expect(result.code).toBe(code);
        const lines = result.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain("DATABASE_URL");
        expect(lines[0]).toContain("ECONNREFUSED");
        expect(result.stderr).not.toContain("secret-pw");
        expect(result.stderr).not.toMatch(/\n\s+at /);
        expect(result.stdout).toBe("");
      },
      60_000,
    );
  });
});
