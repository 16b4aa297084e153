import { ConfigError, getConfig, type ServerConfig } from "../config";
import { DataKeyError } from "../data-key";
import { chooseConnection } from "../db/connection";
import { openNetworkDb } from "../db/network";
import type { Db } from "../db/types";
import { describeError, log } from "../log";
import { recordWebhookEvents } from "../webhooks";
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

/** Opens the configured database (see chooseConnection) as a store; a malformed DATA_KEY stops here. */
export async function openStore(config: ServerConfig = getConfig()): Promise<Store> {
  if (config.dataKeyProblem) throw new DataKeyError(config.dataKeyProblem);
  if (config.webhookProblem) throw new ConfigError(config.webhookProblem);
  const connection = chooseConnection(config);
  if (connection.kind === "embedded" && !openEmbedded) {
    throw new ConfigError("No database configured: set DATABASE_URL, or add Netlify Database (NETLIFY_DB_URL).");
  }
  const db =
    connection.kind === "embedded" && openEmbedded
      ? await openEmbedded(connection.dataDir)
      : await openNetworkDb(connection as Exclude<typeof connection, { kind: "embedded" }>, config);
  return createStore(db, config.dataKeys);
}

let current: Promise<Store> | undefined;
let shutDown = false;

/** The process's store, created on first use; a failed open is retried on the next call. */
export function getStore(): Promise<Store> {
  if (shutDown) return Promise.reject(new Error("The server is shutting down."));
  if (!current) {
    current = openStore();
    // Said once per instance where the platform's log is the only place anyone will read it.
    const config = getConfig();
    if (config.onNetlify && !config.dataKeys) {
      log("warn", "waitlist.plain_text_at_rest", { fix: "set DATA_KEY in the Production context" });
    }
    current.catch(() => {
      current = undefined;
    });
  }
  // With WEBHOOK_URL, the database records webhook events (its triggers write them): said to it once per instance,
  // before the store is handed out, so that no change is committed before its event would be recorded; again on the
  // next call if it could not be reached. Once said, the same settled promise: no further query. Without, nothing is
  // said: another deployment on this database may deliver them (webhooks/index.ts, recordWebhookEvents).
  if (!getConfig().webhook) return current;
  if (!synced) {
    const store = current;
    const syncing = store.then(async (opened) => {
      try {
        await recordWebhookEvents(opened);
      } catch (error) {
        log("warn", "webhooks.sync_failed", describeError(error));
        throw error;
      }
      return opened;
    });
    synced = syncing;
    syncing.catch(() => {
      if (synced === syncing) synced = undefined;
    });
  }
  return synced;
}

let synced: Promise<Store> | undefined;

/** Closes the store for good: nothing in this process opens it again (a graceful shutdown's last step). */
export async function shutDownStore(): Promise<void> {
  shutDown = true;
  await closeStore();
}

/** Closes the process's store (between tests; the next getStore opens it again). */
export async function closeStore(): Promise<void> {
  const store = current;
  current = undefined;
  synced = undefined;
  if (store) await (await store).close();
}
