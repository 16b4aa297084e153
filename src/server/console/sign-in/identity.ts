/**
 * Who a console session or sign-in link belongs to, as the database keeps it and the logs name it: a keyed hash of
 * the admin's address (or of the admin token), never the address. The key is DATA_KEY's lookup key when it is set,
 * so a copy of the database (a preview's fork, a backup) holds nothing to try addresses against; else the server's
 * root secret (the list itself is plain then). Consequences, on purpose: a new WAITLIST_ADMIN_TOKEN hashes
 * differently, so rotating it ends the old token's sessions; rotating DATA_KEY ends every session.
 */
import { createHmac } from "node:crypto";
import type { ServerConfig } from "../../config";
import { derivedKey, rootKey } from "../../crypto/secret";
import type { Store } from "../../store/types";

export interface AdminIdentity {
  /** The stored form of an address of ADMIN_EMAILS ("admin:…"), case-folded. */
  ofAddress(address: string): string;
  /** The stored form of the admin token ("token:…"). */
  ofToken(token: string): string;
  /**
   * Whom a stored form stands for now: an address still in ADMIN_EMAILS, "token" for the current token while
   * tokens sign in, or null (an address taken off the list, an old token, anything else).
   */
  whoIs(stored: string | null, tokenSignIn: boolean): string | null;
  /** How logs name `who` (an address, or "token"): 16 hex digits of its keyed hash. */
  logId(who: string): string;
}

export async function adminIdentity(config: ServerConfig, store: Store): Promise<AdminIdentity> {
  const key = config.dataKeys
    ? createHmac("sha256", config.dataKeys.current.lookup).update("console admin").digest()
    : derivedKey(await rootKey(config, store), "console admin");
  const hash = (kind: string, value: string) => `${kind}:${createHmac("sha256", key).update(value).digest("hex")}`;
  const ofAddress = (address: string) => hash("admin", address.trim().toLowerCase());
  const ofToken = (token: string) => hash("token", token);
  return {
    ofAddress,
    ofToken,
    whoIs(stored, tokenSignIn) {
      if (stored === null) return null;
      if (tokenSignIn && config.adminToken && stored === ofToken(config.adminToken)) return "token";
      return config.adminEmails.find((address) => ofAddress(address) === stored) ?? null;
    },
    logId: (who) => (who === "token" && config.adminToken ? ofToken(config.adminToken) : ofAddress(who)).slice(-16),
  };
}
