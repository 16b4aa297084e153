/**
 * The status link an update carries: each recipient's own, made from their id under the database's secret (like an
 * update's unsubscribe token, updates/message.ts), never stored. A stored token per recipient per update would grow
 * a list of a million people by a million rows with every update; this one costs nothing to make again, and is the
 * same in every update a person gets. It has the stored links' shape (43 characters, base64url), so the status page,
 * its updates choice and its leave button take either: `statusLinkOf` says which a token is. A token whose MAC is
 * not the server's is read as a stored link's, which no row has: the page's 404, as for any wrong link.
 *
 * Keyed by the database's secret (crypto/keys.ts: the CLI that sends an update may not have SERVER_SECRET, and
 * the site must open the link it made). Like a stored status link, it works until its person leaves the list.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import type { DatabaseKey } from "../crypto/keys";
import { derivedHmacKey } from "../crypto/secret";
import { hashToken } from "../crypto/tokens";
import type { StatusLink } from "../store/referral-types";

const ID_BYTES = 8;
/** 8 bytes of id and 24 of MAC: 32 bytes, 43 characters, as a stored link's 256 random bits. */
const MAC_BYTES = 24;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const mac = (key: DatabaseKey, person: number) =>
  createHmac("sha256", derivedHmacKey(key, "status-link")).update(String(person)).digest().subarray(0, MAC_BYTES);

/** Person `person`'s status token: their id and a MAC. */
export function statusToken(key: DatabaseKey, person: number): string {
  const id = Buffer.alloc(ID_BYTES);
  id.writeBigUInt64BE(BigInt(person));
  return Buffer.concat([id, mac(key, person)]).toString("base64url");
}

/** The address of person `person`'s status page, as an update links it. */
export const statusPageLink = (key: DatabaseKey, site: string, person: number) =>
  `${site}${STATUS_PATHS.page}?token=${statusToken(key, person)}`;

/**
 * Which status link `token` is: a person's derived one when its MAC is the server's, else a stored one (by its
 * hash); null for anything not shaped as a token.
 */
export function statusLinkOf(key: DatabaseKey, token: string): StatusLink | null {
  if (!TOKEN.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  // The one spelling of those bytes only (a 43rd character's last two bits are no part of them).
  if (bytes.length === ID_BYTES + MAC_BYTES && bytes.toString("base64url") === token) {
    const person = Number(bytes.readBigUInt64BE(0));
    if (Number.isSafeInteger(person) && timingSafeEqual(mac(key, person), bytes.subarray(ID_BYTES))) return { person };
  }
  return { hash: hashToken(token) };
}
