/**
 * A day's visitor, the Plausible way: a keyed hash (HMAC-SHA256) whose key is the day's random salt, of the user
 * agent, the client's address and the site. It is never stored as such: what is stored is a mark, the same keyed hash
 * of the visitor and one rollup's key, cut to 16 bytes, beside nothing but its day. Two marks of one person cannot be
 * told to be one person's, and no mark says which rollup it counted in; once the day's salt is deleted (after 48
 * hours, with the marks), nothing can be recomputed from an address and a user agent either.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { VisitKey } from "./rules";

/** A new salt: 32 random bytes, hex. */
export const newSalt = (): string => randomBytes(32).toString("hex");

export interface Visitor {
  agent: string;
  ip: string;
  site: string;
}

/** The mark of `visitor` under rollup `key` counted at `page`, with the day's `salt` (hex). */
export function markOf(salt: string, visitor: Visitor, page: string, key: VisitKey): string {
  const data = JSON.stringify([
    visitor.agent,
    visitor.ip,
    visitor.site,
    page,
    key.source,
    key.medium,
    key.campaign,
    key.referrer,
    key.share,
  ]);
  return createHmac("sha256", Buffer.from(salt, "hex")).update(data).digest().subarray(0, 16).toString("hex");
}
