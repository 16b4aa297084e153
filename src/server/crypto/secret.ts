/**
 * The server's root secret, from which every other key is derived (client keys, proof-of-work signatures):
 * RATE_LIMIT_SECRET when the deployer sets one, else the random secret the database made once (migration 0005),
 * which every function instance and every spelling of the database's URL share and nobody can compute.
 */
import { createHmac } from "node:crypto";
import type { ServerConfig } from "../config";
import { log } from "../log";
import type { Store } from "../store/types";

/** The root secret; only ever used through `derivedKey`. */
export type RootKey = Buffer & { readonly __root: unique symbol };

/** Where the root secret comes from, for people (a start-up line, a log line): never the secret. */
export const secretSource = (config: ServerConfig) =>
  config.rateLimitSecret
    ? "RATE_LIMIT_SECRET"
    : "the database (made once at random; set RATE_LIMIT_SECRET to choose one)";

let said = false;

/** The root secret for this configuration and store (the database's is read once per store). */
export async function rootKey(config: ServerConfig, store: Store): Promise<RootKey> {
  if (!said) {
    said = true;
    log("info", "server.secret", { source: config.rateLimitSecret ? "RATE_LIMIT_SECRET" : "database" });
  }
  return (config.rateLimitSecret ? Buffer.from(config.rateLimitSecret) : await store.secret()) as RootKey;
}

/** A key for one purpose, derived from the root secret. */
export const derivedKey = (root: RootKey, purpose: string): Buffer =>
  createHmac("sha256", root).update(purpose).digest();
