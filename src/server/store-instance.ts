import { ConfigError, getConfig, type ServerConfig } from "./config";
import { chooseConnection } from "./db/connection";
import { openNetworkDb } from "./db/network";
import type { Db } from "./db/types";
import { createStore, type Store } from "./store";

type OpenEmbedded = (dataDir: string) => Promise<Db>;
let openEmbedded: OpenEmbedded | undefined;

/**
 * Lets this process use the embedded database when no URL is configured. Local processes (npm start,
 * astro dev, the CLI, tests) pass `openPgliteDb`; a deployed function never does, so its bundle never
 * contains PGlite.
 */
export function allowEmbeddedDatabase(open: OpenEmbedded): void {
  openEmbedded = open;
}

/** Opens the configured database (see chooseConnection) as a store. */
export async function openStore(config: ServerConfig = getConfig()): Promise<Store> {
  const connection = chooseConnection(config);
  if (connection.kind === "embedded") {
    if (!openEmbedded) {
      throw new ConfigError("No database configured: set DATABASE_URL, or add Netlify Database (NETLIFY_DB_URL).");
    }
    return createStore(await openEmbedded(connection.dataDir));
  }
  return createStore(await openNetworkDb(connection, config));
}

let current: Promise<Store> | undefined;

/** The process's store, created on first use; a failed open is retried on the next call. */
export function getStore(): Promise<Store> {
  if (!current) {
    current = openStore();
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

/** Closes the process's store (for a clean shutdown, or between tests). */
export async function closeStore(): Promise<void> {
  const store = current;
  current = undefined;
  if (store) await (await store).close();
}
