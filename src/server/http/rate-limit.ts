import { createHmac } from "node:crypto";
import { isIPv6 } from "node:net";
import type { ServerConfig } from "../config";
import { derivedHmacKey, type RootKey } from "../crypto/secret";
import { log } from "../log";
import type { Store } from "../store/types";
import { withTimeout } from "./timeout";

/**
 * Whom an address stands for: an IPv4 address, or an IPv6 /64 (one household or device; it can pick any
 * address in it at will, so counting per address would let it evade the limit).
 */
export function clientNetwork(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1] as string;
  if (!isIPv6(ip)) return ip || "unknown";
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}

/** A client's key: a keyed hash of its network, so no address is ever stored. */
export function clientKey(ip: string, root: RootKey): string {
  return createHmac("sha256", derivedHmacKey(root, "client")).update(clientNetwork(ip)).digest("base64url");
}

/**
 * The sliding window `now` falls in (of the allowance's length, or `seconds`): counts are kept per fixed window, and a client's estimate is its count in
 * this window plus the previous window's, weighted by how much of it still lies within the last window's length.
 */
export function rateWindow(config: ServerConfig, now = Date.now(), seconds = config.rateLimitWindowSeconds) {
  const windowMs = seconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  return { start: new Date(start), windowMs, previousWeight: 1 - (now - start) / windowMs, now };
}

/** What a visitor past the allowance is told, and the Retry-After that says the same to a client. */
export function comeBackLater(seconds: number, what: string) {
  const minutes = Math.ceil(seconds / 60);
  return {
    message: `${what} from your network just now. Please come back in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    headers: { "Retry-After": String(seconds) },
  };
}

/** A request by address that is counted on its own: its counters' prefix, its log event, and what it is called. */
export interface RequestCount {
  /** Kept apart from sign-ups' counters and from each other, under the same allowance (RATE_LIMIT_MAX a window). */
  prefix: string;
  event: string;
  /** "Many removal links have been asked for": the start of what a refused visitor is told. */
  what: string;
}

/**
 * "Count, then refuse", for the forms that take an address alone (a removal link, a status link): counts this
 * request of the visitor's network, then says what to answer when it is past the allowance (the words and the
 * Retry-After), or nothing when it may go on. Counted before anything is looked up, so a mistyped address
 * (refused before this) counts nothing, and a listed one is not told apart from an unlisted one by the count.
 */
export async function countThenRefuse(
  store: Pick<Store, "hit">,
  config: ServerConfig,
  root: RootKey,
  ip: string | undefined,
  request: RequestCount,
): Promise<{ message: string; headers: Record<string, string> } | undefined> {
  const key = `${request.prefix}${clientKey(ip ?? "", root)}`;
  const count = await withTimeout(store.hit(key, rateWindow(config), config.rateLimitMax), config.dbTimeoutMs);
  if (count.allowed) return undefined;
  log("warn", request.event);
  return comeBackLater(count.retryAfter, request.what);
}
