import { createHash, createHmac, randomBytes } from "node:crypto";
import type { ServerConfig } from "./config";

let secret: { for: string | null; key: Buffer } | undefined;

/**
 * The HMAC key: RATE_LIMIT_SECRET; else one derived from the database URL (the same in every function
 * instance, and as secret as the URL); else, for the embedded database, a random key per process.
 */
function hmacKey(config: ServerConfig): Buffer {
  const source = config.rateLimitSecret ?? config.databaseUrl;
  if (secret?.for !== source) {
    secret = {
      for: source,
      key: config.rateLimitSecret
        ? Buffer.from(config.rateLimitSecret)
        : config.databaseUrl
          ? createHash("sha256").update(`waitlist-rate-limit\0${config.databaseUrl}`).digest()
          : randomBytes(32),
    };
  }
  return secret.key;
}

/** A client's key: a keyed hash of its IP address, so no address is ever stored. */
export function clientKey(ip: string, config: ServerConfig): string {
  return createHmac("sha256", hmacKey(config))
    .update(ip || "unknown")
    .digest("base64url");
}

/** The fixed window `now` falls in, and the seconds until it ends. */
export function rateWindow(config: ServerConfig, now = Date.now()) {
  const windowMs = config.rateLimitWindowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  return {
    start: new Date(start),
    windowMs,
    retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
  };
}
