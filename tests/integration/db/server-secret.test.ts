/**
 * The server's secret (src/server/crypto/secret.ts): without SERVER_SECRET it is the random one the database made once
 * (migration 0005), the same however the database's URL is spelled, and nothing anyone knows computes it.
 */
import { createHash } from "node:crypto";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { encodeProof } from "../../../src/lib/waitlist/client";
import { solveProof } from "../../../src/lib/waitlist/proof-solver";
import { createStore, type Store } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { type RootKey, rootKey } from "../../../src/server/crypto/secret";
import { createPgDb } from "../../../src/server/db/pg";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { clientKey } from "../../../src/server/http/rate-limit";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { createProofChallenge } from "../../../src/server/signup/proof-of-work";
import { migratedDataDir } from "../../support/helpers";
import { createMigratedDatabase, postgresReachable } from "../../support/postgres";

const reachable = await postgresReachable();

describe("on the embedded database", () => {
  it("holds a secret of 32 bytes that stays the same when the database is opened again", async () => {
    const dir = migratedDataDir("secret-a-");
    const first = createStore(await openPgliteDb(dir));
    const secret = await first.secret();
    await first.close();
    const again = createStore(await openPgliteDb(dir));
    try {
      expect(secret).toHaveLength(32);
      expect((await again.secret()).equals(secret)).toBe(true);
    } finally {
      await again.close();
    }
  });

  it("SERVER_SECRET wins over the database's, and so does RATE_LIMIT_SECRET, its old name", async () => {
    const store = createStore(await openPgliteDb(migratedDataDir("secret-c-")));
    try {
      const chosen = "chosen-by-the-deployer-at-least-32-bytes-of-it";
      expect((await rootKey(readConfig({ SERVER_SECRET: chosen }), store)).toString()).toBe(chosen);
      const root = await rootKey(readConfig({ RATE_LIMIT_SECRET: chosen }), store);
      expect(root.toString()).toBe(chosen);
    } finally {
      await store.close();
    }
  });
});

describe.runIf(reachable)("on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let byIp: Store;
  let byName: Store;
  beforeAll(async () => {
    database = await createMigratedDatabase("secret");
    byIp = createStore(createPgDb(database.url));
    byName = createStore(createPgDb(database.url.replace("127.0.0.1", "localhost")));
  }, 60_000);
  afterAll(async () => {
    await byIp?.close();
    await byName?.close();
    await database?.drop();
  });

  it("is the same for every spelling of the URL, so two servers share one allowance", async () => {
    const config = readConfig({});
    const [a, b] = [await rootKey(config, byIp), await rootKey(config, byName)];
    expect(a.equals(b)).toBe(true);
    expect(clientKey("203.0.113.1", a)).toBe(clientKey("203.0.113.1", b));
  });

  it("is made at random by each database's own migration", async () => {
    const other = await createMigratedDatabase("secret_other");
    const store = createStore(createPgDb(other.url));
    try {
      expect((await store.secret()).equals(await byIp.secret())).toBe(false);
    } finally {
      await store.close();
      await other.drop();
    }
  });

  it("refuses a proof of work signed with a secret computed from the URL (the old derivation)", async () => {
    const computed = createHash("sha256").update(`waitlist-rate-limit\0${database.url}`).digest() as RootKey;
    const challenge = await createProofChallenge("forger@example.com", computed);
    const solution = await solveProof(challenge, 8);
    expect(solution).not.toBeNull();
    const config = readConfig({ DATABASE_URL: database.url, RATE_LIMIT_MAX: "1" });
    const handler = createWaitlistHandler({ store: async () => byIp, config: () => config });
    const request = new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: "forger@example.com",
        termsAccepted: true,
        altcha: encodeProof(challenge, solution as NonNullable<typeof solution>),
      }),
    });
    const res = await handler(request, createContext(request, "203.0.113.9", new Set()) as Context);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "The anti-spam check did not pass. Please try again." });
    expect(await byIp.db.query("SELECT 1 FROM waitlist WHERE email = 'forger@example.com'")).toEqual([]);
  });
});
