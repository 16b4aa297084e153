/**
 * The server's root secret, from which every other key is derived (client keys, proof-of-work signatures):
 * SERVER_SECRET when the deployer sets one (RATE_LIMIT_SECRET, its old name, is still read), else the random secret
 * the database made once (migration 0005), which every function instance and every spelling of the database's URL
 * share and nobody outside can compute. What a copy of the database must not be able to make (an invite code, a job
 * start) takes only the server's own (serverRoot), never that fallback: crypto/keys.ts says which takes which.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { ConfigError, type ServerConfig } from "../config";
import { RENAME_SECRET } from "../config/secret";
import { log } from "../log";
import type { Store } from "../store/types";

/** The root secret; only ever used through `derivedKey`. */
export type RootKey = Buffer & { readonly __root: unique symbol };

/** Where the root secret comes from, for people (a start-up line, a log line): never the secret. */
export const secretSource = (config: ServerConfig) =>
  config.serverSecretName === "RATE_LIMIT_SECRET"
    ? `RATE_LIMIT_SECRET (${RENAME_SECRET})`
    : config.serverSecret
      ? "SERVER_SECRET"
      : "the database (made once at random; set SERVER_SECRET to choose one: status pages offer invite codes only with it)";

/** A secret that cannot be used stops whatever would derive a key from it, with the line that names it. */
function refuseBadSecret(config: ServerConfig): void {
  if (config.serverSecretProblem) throw new ConfigError(config.serverSecretProblem);
}

let said = false;

/** A start-up that has printed the secret's source (and the rename) itself: the log says nothing more of it. */
export function secretSaid(): void {
  said = true;
}

/** Said once per process: which secret is the root, and the rename when the old name is in use. */
function sayOnce(config: ServerConfig): void {
  if (said) return;
  said = true;
  log("info", "server.secret", { source: config.serverSecretName ?? "database" });
  if (config.serverSecretName === "RATE_LIMIT_SECRET") log("warn", "server.secret_old_name", { fix: RENAME_SECRET });
}

/**
 * The server's own secret (SERVER_SECRET), set outside the database; null when it is not set. A ConfigError when it
 * is set and cannot be used (too short, or two names that differ).
 */
export function serverRoot(config: ServerConfig): RootKey | null {
  refuseBadSecret(config);
  if (!config.serverSecret) return null;
  sayOnce(config);
  return Buffer.from(config.serverSecret) as RootKey;
}

/** The root secret for this configuration and store: the server's own, else the database's (read once per store). */
export async function rootKey(config: ServerConfig, store: Pick<Store, "secret">): Promise<RootKey> {
  const own = serverRoot(config);
  if (own) return own;
  sayOnce(config);
  return (await store.secret()) as RootKey;
}

/** A key for one purpose, derived from the root secret. */
export const derivedKey = (root: RootKey, purpose: string): Buffer =>
  createHmac("sha256", root).update(purpose).digest();

const prepared = new WeakMap<RootKey, Map<string, KeyObject>>();

/**
 * derivedKey as a KeyObject, for createHmac, made once per root and purpose: Node 24 prepares a Buffer key anew on
 * every createHmac (about 150 µs a call, measured, where the hash itself takes 20), a KeyObject once. An import
 * keys every address twice; a sign-up, several times.
 */
export function derivedHmacKey(root: RootKey, purpose: string): KeyObject {
  const byPurpose = prepared.get(root) ?? new Map<string, KeyObject>();
  prepared.set(root, byPurpose);
  const key = byPurpose.get(purpose) ?? createSecretKey(derivedKey(root, purpose));
  byPurpose.set(purpose, key);
  return key;
}
