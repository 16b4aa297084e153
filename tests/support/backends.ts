/**
 * The three ways the project reaches Postgres, as a table for `describe.each`: the embedded PGlite always, and
 * PostgreSQL over TCP and through Neon's HTTP protocol when 127.0.0.1:5432 answers (REQUIRE_POSTGRES=1: it must).
 * Each opens a fresh, migrated database and closes (and drops) it again; useBackend opens one for a describe block.
 */

import { afterAll, beforeAll } from "vitest";
import { createStore, type Store } from "../../src/server/app/store";
import { createNeonHttpDb } from "../../src/server/db/neon-http";
import { createPgDb } from "../../src/server/db/pg";
import { openPgliteDb } from "../../src/server/db/pglite";
import { migratedDataDir } from "./helpers";
import { routeNeonThroughProxy } from "./neon-sql-proxy";
import { createMigratedDatabase, postgresReachable } from "./postgres";

export interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

const reachable = await postgresReachable();

/**
 * A fresh, migrated PostgreSQL database called `name`, reached as `reach` makes a store of its URL; `release` lets
 * go of what `reach` opened, and the database is dropped after it.
 */
async function onPostgres(
  name: string,
  reach: (url: string) => Promise<{ store: Store; release(): Promise<void> }>,
): Promise<OpenedStore> {
  const database = await createMigratedDatabase(name);
  const { store, release } = await reach(database.url);
  return {
    store,
    close: async () => {
      await release();
      await database.drop();
    },
  };
}

/** [name, available here, open]; `prefix` names the folders and databases a suite makes. */
export function backends(prefix: string): Array<[string, boolean, () => Promise<OpenedStore>]> {
  return [
    [
      "embedded PGlite",
      true,
      async () => {
        const store = createStore(await openPgliteDb(migratedDataDir(`${prefix}-`)));
        return { store, close: () => store.close() };
      },
    ],
    [
      "PostgreSQL over TCP (node-postgres)",
      reachable,
      () =>
        onPostgres(`${prefix}_pg`, async (url) => {
          const store = createStore(createPgDb(url));
          return { store, release: () => store.close() };
        }),
    ],
    [
      "PostgreSQL through Neon's HTTP protocol (neon())",
      reachable,
      // Neon's HTTP driver holds no connection: only the proxy in front of it is closed.
      () =>
        onPostgres(`${prefix}_neon`, async (url) => {
          const proxy = await routeNeonThroughProxy();
          return { store: createStore(createNeonHttpDb(url)), release: () => proxy.close() };
        }),
    ],
  ];
}

/**
 * Opens the backend before a describe block's tests (where it is available here) and closes it after them. Its
 * `store`, and whatever else `open` returned as `opened`, are read inside the tests, once it is open.
 */
export function useBackend<T extends OpenedStore>(available: boolean, open: () => Promise<T>) {
  let current: T | undefined;
  beforeAll(async () => {
    if (available) current = await open();
  }, 60_000);
  afterAll(async () => {
    await current?.close();
  });
  const opened = (): T => {
    if (!current) throw new Error("the backend is not open: read it inside a test that runs where it is available");
    return current;
  };
  return {
    get opened(): T {
      return opened();
    },
    get store(): Store {
      return opened().store;
    },
  };
}
