/**
 * A self-hosted proof-of-work challenge (ALTCHA, `altcha-lib`), asked only past a client's free allowance:
 * people behind one address (an office, a conference, a mobile carrier) all get in after their browser spends
 * a moment solving it, while a script that floods the API without running the page gets nothing more stored.
 * No third party, no cookie, nothing stored: the challenge is signed (HMAC), expires, and is bound to the
 * address it was issued for, so one solution cannot sign up a second address.
 */
import { createHmac } from "node:crypto";
import type { Challenge, Payload } from "altcha-lib";
import { derivedHmacKey, derivedKey, type RootKey } from "../crypto/secret";

/** PBKDF2-SHA-256, 100 iterations per try, the answer among 1,000–4,000 tries: a fraction of a second in a browser. */
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 100;
const COUNTER = [1_000, 4_000] as const;
const TTL_SECONDS = 600;

/** Binds a challenge to one address without revealing it: a keyed hash of the trimmed, lower-cased e-mail. */
const addressTag = (email: string, root: RootKey) =>
  createHmac("sha256", derivedHmacKey(root, "pow-address"))
    .update(email.trim().toLowerCase())
    .digest("base64url")
    .slice(0, 22);

const load = () => Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/pbkdf2")]);

export async function createProofChallenge(email: string, root: RootKey): Promise<Challenge> {
  const [{ createChallenge, randomInt }, { deriveKey }] = await load();
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(COUNTER[0], COUNTER[1]),
    deriveKey,
    data: { for: addressTag(email, root) },
    expiresAt: Math.floor(Date.now() / 1000) + TTL_SECONDS,
    hmacSignatureSecret: derivedKey(root, "pow-challenge").toString("base64url"),
    hmacKeySignatureSecret: derivedKey(root, "pow-key").toString("base64url"),
  });
}

/** True when `encoded` (base64 JSON `{challenge, solution}`) is a valid, unexpired solution issued for `email`. */
export async function verifyProof(encoded: unknown, email: string, root: RootKey): Promise<boolean> {
  if (typeof encoded !== "string" || encoded.length > 4096) return false;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as Payload;
  } catch {
    return false;
  }
  if (payload?.challenge?.parameters?.data?.["for"] !== addressTag(email, root)) return false;
  const [{ verifySolution }, { deriveKey }] = await load();
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: derivedKey(root, "pow-challenge").toString("base64url"),
      hmacKeySignatureSecret: derivedKey(root, "pow-key").toString("base64url"),
    });
    return result.verified;
  } catch {
    return false;
  }
}
