/**
 * The three ways the project reaches Postgres, as a table for `describe.each`: the embedded PGlite always, and
 * PostgreSQL over TCP and through Neon's HTTP protocol when 127.0.0.1:5432 answers (REQUIRE_POSTGRES=1: it must).
 * Each opens a fresh, migrated database and closes (and drops) it again.
 */

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
      async () => {
        const database = await createMigratedDatabase(`${prefix}_pg`);
        const store = createStore(createPgDb(database.url));
        return {
          store,
          close: async () => {
            await store.close();
            await database.drop();
          },
        };
      },
    ],
    [
      "PostgreSQL through Neon's HTTP protocol (neon())",
      reachable,
      async () => {
        const database = await createMigratedDatabase(`${prefix}_neon`);
        const proxy = await routeNeonThroughProxy();
        const store = createStore(createNeonHttpDb(database.url));
        return {
          store,
          close: async () => {
            await proxy.close();
            await database.drop();
          },
        };
      },
    ],
  ];
}
