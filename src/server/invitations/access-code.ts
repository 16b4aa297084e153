/**
 * The invite code an invited person's status page puts in its **Create my account** link. The invitation's own
 * code is kept only as a hash (its e-mail holds it), so the page cannot show that one; this one is derived, never
 * stored: their id and a MAC, under SERVER_SECRET (crypto/keys.ts: accessCodeKey, never the database's own
 * secret, which a copy of the database holds; without SERVER_SECRET there is no such code), over the id and when
 * their invitation expires. Only a page opened by the person's own stored status
 * link shows it, never one opened by the link an update carries (bulk e-mail is forwarded). It has
 * an invite code's shape (20 bytes, 27 characters), redeems once like any (the person is then joined), stops with
 * the invitation (a new one, re-sent or re-issued, has another expiry, so another code), and a MAC that is not
 * the server's is an unknown code: 404, as for any wrong code.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { derivedHmacKey, type RootKey } from "../crypto/secret";
import { INVITE_CODE_PATTERN } from "./invite-store";

const ID_BYTES = 8;
const MAC_BYTES = 12;

const mac = (key: RootKey, person: number, expiresAt: Date) =>
  createHmac("sha256", derivedHmacKey(key, "invite-access"))
    .update(`${person}.${expiresAt.getTime()}`)
    .digest()
    .subarray(0, MAC_BYTES);

/** Person `person`'s code for the invitation that expires at `expiresAt`. */
export function accessCode(key: RootKey, person: number, expiresAt: Date): string {
  const id = Buffer.alloc(ID_BYTES);
  id.writeBigUInt64BE(BigInt(person));
  return Buffer.concat([id, mac(key, person, expiresAt)]).toString("base64url");
}

/** The person a code would be derived for (its first 8 bytes), or null for a code of another shape. */
export function accessCodePerson(code: string): number | null {
  if (!INVITE_CODE_PATTERN.test(code)) return null;
  const bytes = Buffer.from(code, "base64url");
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString("base64url") !== code) return null;
  const person = Number(bytes.readBigUInt64BE(0));
  return Number.isSafeInteger(person) && person > 0 ? person : null;
}

/** Whether `code` is person `person`'s for the invitation that expires at `expiresAt`. */
export function isAccessCode(key: RootKey, code: string, person: number, expiresAt: Date): boolean {
  const bytes = Buffer.from(code, "base64url");
  return (
    bytes.length === ID_BYTES + MAC_BYTES && timingSafeEqual(mac(key, person, expiresAt), bytes.subarray(ID_BYTES))
  );
}
