/**
 * The store's SQL, unchanged, on every way the project reaches Postgres: the embedded PGlite, PostgreSQL over
 * TCP (node-postgres), and PostgreSQL through Neon's HTTP protocol (the real `neon()` driver in front of a
 * test-only `/sql` server). The PostgreSQL rows run when 127.0.0.1:5432 answers; REQUIRE_POSTGRES=1 (CI)
 * makes them mandatory.
 * Longer than 150 lines: one table of cases, run on three backends.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createStore } from "../../../src/server/app/store";
import { MIGRATIONS_DIR } from "../../../src/server/db/migrations";
import { createNeonHttpDb } from "../../../src/server/db/neon-http";
import { createPgDb } from "../../../src/server/db/pg";
import { openPgliteDb } from "../../../src/server/db/pglite";
import type { Db } from "../../../src/server/db/types";
import { type OpenedStore, useBackend } from "../../support/backends";
import { findEntry } from "../../support/find-entry";
import { migratedDataDir } from "../../support/helpers";
import { routeNeonThroughProxy } from "../../support/neon-sql-proxy";
import { startWireCounter } from "../../support/pg-wire-counter";
import { createMigratedDatabase, postgresReachable } from "../../support/postgres";

const reachable = await postgresReachable();

interface Opened extends OpenedStore {
  /** Database round trips made so far, counted where they happen (the wire, the HTTP endpoint, the calls). */
  roundTrips(): number;
}

/** Counts calls for the embedded database, where a query is a call, not a network exchange. */
function counting(db: Db): { db: Db; calls: () => number } {
  let calls = 0;
  return {
    db: {
      kind: db.kind,
      query: (sql, params) => {
        calls++;
        return db.query(sql, params);
      },
      close: () => db.close(),
    },
    calls: () => calls,
  };
}

const BACKENDS: Array<[string, boolean, () => Promise<Opened>]> = [
  [
    "embedded PGlite",
    true,
    async () => {
      const { db, calls } = counting(await openPgliteDb(migratedDataDir()));
      const store = createStore(db);
      return { store, roundTrips: calls, close: () => store.close() };
    },
  ],
  [
    "PostgreSQL over TCP (node-postgres)",
    reachable,
    async () => {
      const database = await createMigratedDatabase("store_pg");
      const counter = await startWireCounter(database.url);
      const store = createStore(createPgDb(counter.url));
      return {
        store,
        roundTrips: counter.roundTrips,
        close: async () => {
          await store.close();
          await counter.close();
          await database.drop();
        },
      };
    },
  ],
  [
    "PostgreSQL through Neon's HTTP protocol (neon())",
    reachable,
    async () => {
      const database = await createMigratedDatabase("store_neon");
      const proxy = await routeNeonThroughProxy();
      const store = createStore(createNeonHttpDb(database.url));
      return {
        store,
        roundTrips: () => proxy.requests.length,
        close: async () => {
          await proxy.close();
          await database.drop();
        },
      };
    },
  ],
];

describe.each(BACKENDS)("the store on %s", (_name, available, open) => {
  const backend = useBackend(available, open);

  it.skipIf(!available)("adds entries, one per address whatever its case", async () => {
    expect(await backend.store.add({ name: "Ada", email: "ada@example.com", message: null })).toBe(true);
    expect(await backend.store.add({ name: "Ada again", email: "ADA@EXAMPLE.COM", message: "Why: again" })).toBe(false);
    expect(await backend.store.count()).toBe(1);
    expect(await findEntry(backend.store, "Ada@Example.com")).toEqual({
      name: "Ada",
      email: "ada@example.com",
      message: null,
    });
  });

  it.skipIf(!available)("stores text exactly: quotes, SQL, emoji, right-to-left and line breaks", async () => {
    const message = "Why: Robert'); DROP TABLE waitlist;--\n\nConnect: 🧠 مرحبا \u200b ok";
    expect(await backend.store.add({ name: "O'Brien", email: "obrien@example.com", message })).toBe(true);
    expect(await findEntry(backend.store, "obrien@example.com")).toEqual({
      name: "O'Brien",
      email: "obrien@example.com",
      message,
    });
  });

  it.skipIf(!available)(
    "counts and stores a valid sign-up in exactly one round trip, within the allowance",
    async () => {
      const window = { start: new Date("2026-01-01T00:00:00Z"), windowMs: 600_000, previousWeight: 0.5 };
      const signUp = (email: string) =>
        backend.store.hitAndAdd("client-a", window, 2, { name: null, email, message: "Why: one trip" });
      const before = backend.opened.roundTrips();
      expect(await signUp("first@example.com")).toEqual({
        allowed: true,
        attempts: 1,
        previous: 0,
        retryAfter: 1,
        added: true,
      });
      expect(backend.opened.roundTrips() - before).toBe(1);
      expect(await signUp("FIRST@example.com")).toEqual({
        allowed: true,
        attempts: 2,
        previous: 0,
        retryAfter: 600,
        added: false,
      });
      expect(await signUp("third@example.com")).toEqual({
        allowed: false,
        attempts: 3,
        previous: 0,
        retryAfter: 700,
        added: false,
      });
      expect(backend.opened.roundTrips() - before).toBe(3);
      expect(await findEntry(backend.store, "third@example.com")).toBeNull();
    },
  );

  it.skipIf(!available)(
    "weighs the previous window into a sliding estimate: no burst of twice the allowance at a boundary",
    async () => {
      const windowMs = 600_000;
      const first = { start: new Date("2026-03-01T00:00:00Z"), windowMs, previousWeight: 0 };
      const entry = (email: string) => ({ name: null, email, message: null });
      for (const n of [1, 2]) await backend.store.hitAndAdd("client-edge", first, 2, entry(`edge${n}@example.com`));
      // Just after the boundary, 90 % of the previous window still counts: 1 + 2 × 0.9 = 2.8 > 2.
      const next = { start: new Date("2026-03-01T00:10:00Z"), windowMs, previousWeight: 0.9 };
      expect(await backend.store.hitAndAdd("client-edge", next, 2, entry("edge3@example.com"))).toEqual({
        allowed: false,
        attempts: 1,
        previous: 2,
        // Accepted at the next window's start, when this attempt is the previous window's at full weight: 1 + 1 ≤ 2.
        retryAfter: 540,
        added: false,
      });
    },
  );

  it.skipIf(!available)(
    "prunes windows older than the previous one and an hour on a window's first attempt, in the same trip",
    async () => {
      const minute = 60_000;
      const at = (m: number) => ({ start: new Date(Date.UTC(2026, 1, 1, 0, m)), windowMs: minute, previousWeight: 1 });
      const entry = (email: string) => ({ name: null, email, message: null });
      await backend.store.hitAndAdd("client-b", at(0), 100, entry("prune-b@example.com"));
      await backend.store.hitAndAdd("client-c", at(1), 100, entry("prune-c@example.com"));
      // At 01:02 the previous window started at 01:01: windows before 00:01 go, the one at 00:01 stays.
      const before = backend.opened.roundTrips();
      expect((await backend.store.hitAndAdd("client-d", at(62), 100, entry("prune-d@example.com"))).attempts).toBe(1);
      expect(backend.opened.roundTrips() - before).toBe(1);
      const windows = await backend.store.db.query<{ client_key: string }>(
        "SELECT client_key FROM waitlist_rate_limit WHERE client_key LIKE 'client-_' ORDER BY client_key",
      );
      expect(windows.map((w) => w.client_key)).toEqual(["client-c", "client-d"]);
    },
  );

  it.skipIf(!available)("lists entries oldest first and counts them per day", async () => {
    const list = await backend.store.list();
    expect(list.slice(0, 3).map((e) => e.email)).toEqual([
      "ada@example.com",
      "obrien@example.com",
      "first@example.com",
    ]);
    expect(list[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await backend.store.list(new Date("2999-01-01"))).toEqual([]);
    const days = await backend.store.perDay(3);
    expect(days).toHaveLength(3);
    expect(days.at(-1)?.count).toBe(list.length);
  });

  it.skipIf(!available)("raises a database error with its Postgres code", async () => {
    await expect(backend.store.db.query("INSERT INTO waitlist (email) VALUES (NULL)")).rejects.toMatchObject({
      code: "23502",
    });
  });

  it.skipIf(!available)("records the applied migrations where Netlify Database does", async () => {
    const rows = await backend.store.db.query<{ name: string }>("SELECT name FROM netlify.migrations ORDER BY name");
    const files = readdirSync(MIGRATIONS_DIR).map((file) => file.replace(/\.sql$/, ""));
    expect(rows.map((r) => r.name)).toEqual(files.sort());
  });
});
