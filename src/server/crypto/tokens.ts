/**
 * Every secret the site hands out and finds again by looking it up (a confirmation or removal link's token, an
 * invite code, a console session or sign-in link, a bearer token), made, stored and compared by one rule: random
 * bytes as base64url for the person, only a SHA-256 of it for the database (a stolen table opens nothing), and a
 * comparison that takes the same time whatever matches. Not made here: what is checked by its MAC instead and never
 * stored (an update's unsubscribe token, status link and Message-ID, a proof of work, a console download's part
 * link), keyed as src/server/crypto/keys.ts says.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new secret of `bytes` random bytes (base64url), and the hash the database keeps of it. */
export function newToken(bytes = 32): { token: string; hash: string } {
  const token = randomBytes(bytes).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** What the database keeps of a token (hex SHA-256), and looks it up by. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Compares two secrets in constant time (digests first, so lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
