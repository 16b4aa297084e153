/**
 * Who may start the background function: only the product itself. Its URL is public like any function's, so a
 * request must carry a signature by a key derived from SERVER_SECRET (crypto/keys.ts: jobStartKey, never the
 * database's secret, which a copy of the database holds), over a body naming
 * the job, an expiry a minute away and a random nonce; the nonce is recorded when the request is accepted, so the
 * same request sent again (a replay, the platform's own retry of an answered invocation) is refused. Anything else
 * is a 401 and changes nothing: the signature and the expiry are checked before the database is written.
 */
import { createHmac, randomBytes } from "node:crypto";
import { derivedKey, type RootKey } from "../crypto/secret";
import { sameSecret } from "../crypto/tokens";
import type { Db } from "../db/types";
import { isJobKind, type JobKind } from "./lease";

/** How long a signed start stays valid: it is sent at once, so a minute covers a slow platform and clock drift. */
export const SIGNED_START_SECONDS = 60;
/** The header the signature travels in. */
export const SIGNATURE_HEADER = "x-job-signature";

export interface JobStart {
  kind: JobKind;
  id: number;
  /** Seconds since 1970 after which the request is refused. */
  exp: number;
  nonce: string;
}

const keyOf = (root: RootKey) => derivedKey(root, "background-job-start");
const signatureOf = (root: RootKey, body: string) => createHmac("sha256", keyOf(root)).update(body).digest("base64url");

/** The body and signature of a request that starts job `id` of `kind` (`now`: ms since 1970). */
export function signJobStart(root: RootKey, kind: JobKind, id: number, now = Date.now()) {
  const start: JobStart = {
    kind,
    id,
    exp: Math.floor(now / 1000) + SIGNED_START_SECONDS,
    nonce: randomBytes(16).toString("base64url"),
  };
  const body = JSON.stringify(start);
  return { body, signature: signatureOf(root, body) };
}

export const NONCE_SQL = {
  /** Records nonce `$1` until `$2` (seconds since 1970): one row, once; the expired ones go in the same statement. */
  use: `WITH gone AS (DELETE FROM waitlist_job_nonce WHERE expires_at < now() - interval '1 hour')
    INSERT INTO waitlist_job_nonce (nonce, expires_at) VALUES ($1, to_timestamp($2))
    ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
} as const;

export type Verdict = { start: JobStart } | { refused: string };

/**
 * The job a request may start, or why not: no or a wrong signature, a body not of our shape, expired (or dated
 * too far ahead), or its nonce already used. Only a request that passes every other check records its nonce.
 */
export async function verifyJobStart(
  db: Db,
  root: RootKey,
  body: string,
  signature: string | null,
  now = Date.now(),
): Promise<Verdict> {
  if (!signature || !sameSecret(signature, signatureOf(root, body))) return { refused: "not signed by this site" };
  let start: Partial<JobStart>;
  try {
    start = JSON.parse(body) as Partial<JobStart>;
  } catch {
    return { refused: "not a job start" };
  }
  const { kind, id, exp, nonce } = start;
  if (
    typeof kind !== "string" ||
    !isJobKind(kind) ||
    !Number.isSafeInteger(id) ||
    typeof exp !== "number" ||
    typeof nonce !== "string" ||
    !/^[\w-]{22}$/.test(nonce)
  ) {
    return { refused: "not a job start" };
  }
  const seconds = now / 1000;
  if (exp < seconds || exp > seconds + SIGNED_START_SECONDS + 5) return { refused: "expired" };
  if ((await db.query(NONCE_SQL.use, [nonce, exp])).length !== 1) return { refused: "already used" };
  return { start: { kind, id: id as number, exp, nonce } };
}
