import { createHash, createHmac, randomBytes } from "node:crypto";
import { isIPv6 } from "node:net";
import type { ServerConfig } from "./config";

let secret: { for: string | null; key: Buffer } | undefined;

/**
 * The server's secret: RATE_LIMIT_SECRET; else one derived from the database URL (the same in every function
 * instance, and as secret as the URL); else, for the embedded database, a random key per process.
 */
function rootKey(config: ServerConfig): Buffer {
  const url = config.databaseUrl ?? config.netlifyDbUrl;
  const source = config.rateLimitSecret ?? url;
  if (secret?.for !== source) {
    secret = {
      for: source,
      key: config.rateLimitSecret
        ? Buffer.from(config.rateLimitSecret)
        : url
          ? createHash("sha256").update(`waitlist-rate-limit\0${url}`).digest()
          : randomBytes(32),
    };
  }
  return secret.key;
}

/** A key for one purpose, derived from the server's secret (client keys, proof-of-work signatures…). */
export function serverSecret(config: ServerConfig, purpose: string): Buffer {
  return createHmac("sha256", rootKey(config)).update(purpose).digest();
}

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
export function clientKey(ip: string, config: ServerConfig): string {
  return createHmac("sha256", serverSecret(config, "client")).update(clientNetwork(ip)).digest("base64url");
}

/**
 * The sliding window `now` falls in: counts are kept per fixed window, and a client's estimate is its count in
 * this window plus the previous window's, weighted by how much of it still lies within the last window's length.
 */
export function rateWindow(config: ServerConfig, now = Date.now()) {
  const windowMs = config.rateLimitWindowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  return {
    start: new Date(start),
    windowMs,
    previousWeight: 1 - (now - start) / windowMs,
    retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
  };
}

/** What a visitor past the allowance without JavaScript is told, and the header that says the same to a client. */
export function comeBackLater(window: { retryAfterSeconds: number }, what: string) {
  const minutes = Math.ceil(window.retryAfterSeconds / 60);
  return {
    message: `${what} from your network just now. Please come back in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    headers: { "Retry-After": String(window.retryAfterSeconds) },
  };
}
