/**
 * Protocol contract test: the production path (`neon()` over HTTP, our SQL) against a real PostgreSQL,
 * through a test-only server speaking the driver's `/sql` protocol. Runs when PostgreSQL is reachable on
 * 127.0.0.1:5432; REQUIRE_POSTGRES=1 (set by .ci/run) makes it mandatory.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { neonConfig } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import handler from "../../netlify/functions/waitlist";
import { resetConfig } from "../../src/server/config";
import { createNeonDb } from "../../src/server/db-neon";
import { applySchema, closeStore, createStore, type Store } from "../../src/server/store";
import { fakeContext, post } from "./helpers";
import { type SqlProxy, startSqlProxy } from "./neon-sql-proxy";
import { createTestDatabase, postgresReachable } from "./postgres";

const reachable = await postgresReachable();

describe.skipIf(!reachable)("Neon HTTP driver → /sql protocol → PostgreSQL", () => {
  let proxy: SqlProxy;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  const previousEndpoint = neonConfig.fetchEndpoint;

  beforeAll(async () => {
    database = await createTestDatabase("waitlist_contract");
    proxy = await startSqlProxy();
    // The same module instance (ESM) that src/server/db-neon.ts imports, so this setting reaches it.
    neonConfig.fetchEndpoint = proxy.url;
    store = createStore(createNeonDb(database.url));
    await applySchema(store.db);
    await applySchema(store.db); // idempotent
  });

  afterAll(async () => {
    neonConfig.fetchEndpoint = previousEndpoint;
    delete process.env["DATABASE_URL"];
    resetConfig();
    await closeStore();
    await proxy?.close();
    await database?.drop();
  });

  it("speaks the documented protocol: headers and {query, params}", async () => {
    proxy.requests.length = 0;
    await store.count();
    const [request] = proxy.requests;
    // The driver appends its application_name to the connection string.
    expect(String(request?.headers["neon-connection-string"])).toMatch(new RegExp(`^${database.url}(\\?|$)`));
    expect(request?.headers["neon-raw-text-output"]).toBe("true");
    expect(request?.headers["neon-array-mode"]).toBe("true");
    expect(request?.body).toEqual({ query: "SELECT count(*)::int AS count FROM waitlist", params: [] });
  });

  it("inserts an entry and ignores the same address in another case", async () => {
    expect(await store.add({ name: "Ada", email: "Ada@Example.com", message: "Why: graphs" })).toBe(true);
    expect(await store.add({ name: null, email: "ada@example.COM", message: null })).toBe(false);
    expect(await store.find("ADA@example.com")).toEqual({
      name: "Ada",
      email: "Ada@Example.com",
      message: "Why: graphs",
    });
    expect(await store.count()).toBe(1);
  });

  it("raises a database error as NeonDbError with its Postgres code", async () => {
    await expect(store.db.query("INSERT INTO waitlist (email) VALUES (NULL)")).rejects.toMatchObject({
      name: "NeonDbError",
      code: "23502",
    });
  });

  it("the function stores a sign-up through DATABASE_URL", async () => {
    process.env["DATABASE_URL"] = database.url;
    process.env["RATE_LIMIT_MAX"] = "100000";
    resetConfig();
    await closeStore();
    const res = await handler(
      post({ email: " lovelace@example.com ", termsAccepted: true, organization: "Analytical Engines" }),
      fakeContext(),
    );
    expect(res.status).toBe(201);
    expect(await store.find("lovelace@example.com")).toEqual({
      name: null,
      email: "lovelace@example.com",
      message: "Organization: Analytical Engines",
    });
  });

  it("the CLI counts and exports from DATABASE_URL", async () => {
    const run = promisify(execFile);
    const env = { ...process.env, DATABASE_URL: database.url, NEON_FETCH_ENDPOINT: proxy.url };
    const cli = (...args: string[]) =>
      run("node_modules/.bin/node", ["--import", "tsx", "scripts/waitlist.ts", ...args], { env });
    const count = await cli("count");
    expect(count.stdout).toContain(`Waitlist: ${await store.count()} sign-ups in Neon (DATABASE_URL)`);
    const csv = (await cli("export")).stdout;
    expect(csv).toContain("Ada,Ada@Example.com,Why: graphs\r\n");
    expect(csv).toContain("lovelace@example.com");
  }, 60_000);
});
