/**
 * Encryption at rest with DATA_KEY: a sign-up's personal data (name, address, answers) is sealed into one
 * AES-256-GCM blob per row (Node's crypto), and its address is kept only as a keyed hash, by which duplicates are
 * refused and an address is looked up. A copy of the table without the key (a preview's branch, a backup, a
 * leaked URL) names nobody. Rows written before the key was set stay readable as plain text until
 * `npm run waitlist -- encrypt` seals them; the same command moves rows from DATA_KEY_PREVIOUS to DATA_KEY.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

/** What a sign-up tells about a person: everything here is sealed when a key is set. */
export interface PersonalData {
  name: string | null;
  email: string;
  message: string | null;
  organization: string | null;
  why: string | null;
  connect: string | null;
  /** Free-text answers to the team's questions, by question id (null or absent: none). */
  answers?: Record<string, string> | null;
}
export const PERSONAL_FIELDS = ["name", "email", "message", "organization", "why", "connect", "answers"] as const;
/** A person's columns as a statement selects them: plain, or the hash, key id and blob of a sealed row. */
export const STORED_PERSON_FIELDS = [...PERSONAL_FIELDS, "key_id", "sealed"] as const;
export const PERSON_COLUMNS = STORED_PERSON_FIELDS.join(", ");

/** One DATA_KEY, as the keys derived from it: to seal, to hash addresses, and the id rows name it by. */
export interface DataKey {
  id: string;
  /** KeyObjects, made once: Node prepares a Buffer key anew on every cipher or HMAC (crypto/secret.ts says more). */
  seal: KeyObject;
  lookup: KeyObject;
}

/** The key rows are sealed with now and, while rotating, the one they may still be sealed with. */
export interface DataKeys {
  current: DataKey;
  previous: DataKey | null;
}

export class DataKeyError extends Error {
  override name = "DataKeyError";
}

const derive = (key: Buffer, purpose: string) => Buffer.from(hkdfSync("sha256", key, "", `noosphere ${purpose}`, 32));

/** DATA_KEY (32 random bytes in base64: `openssl rand -base64 32`) as its derived keys; a clear error otherwise. */
export function parseDataKey(value: string, variable = "DATA_KEY"): DataKey {
  const bytes = Buffer.from(value, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || bytes.length !== 32) {
    throw new DataKeyError(`${variable} must be 32 random bytes in base64: make one with \`openssl rand -base64 32\`.`);
  }
  return {
    id: derive(bytes, "key id").toString("hex").slice(0, 16),
    seal: createSecretKey(derive(bytes, "seal")),
    lookup: createSecretKey(derive(bytes, "lookup")),
  };
}

/** The row's `email` column under `key`: a keyed hash of the case-folded address (one entry per address). */
export function addressHash(key: DataKey, email: string): string {
  return `hmac:${createHmac("sha256", key.lookup).update(email.toLowerCase()).digest("hex")}`;
}

/**
 * Every value the `email` column may hold for this address, the one to write first: its hash under the current
 * key, under the previous one while rotating, and the plain address of a row not yet sealed.
 */
export function addressKeys(keys: DataKeys | null, email: string): string[] {
  const plain = email.toLowerCase();
  if (!keys) return [plain];
  return [addressHash(keys.current, email), ...(keys.previous ? [addressHash(keys.previous, email)] : []), plain];
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The personal data as one sealed blob (base64url of IV, ciphertext, tag), bound to the row's address hash. */
export function seal(key: DataKey, data: PersonalData, addressKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.seal, iv);
  cipher.setAAD(Buffer.from(addressKey));
  const body = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** Opens a sealed blob; a blob that does not open under `key` (wrong key, altered, moved) is a DataKeyError. */
export function open(key: DataKey, sealed: string, addressKey: string): PersonalData {
  const bytes = Buffer.from(sealed, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.seal, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(addressKey));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    return JSON.parse(text.toString("utf8")) as PersonalData;
  } catch {
    throw new DataKeyError(`A row sealed under key ${key.id} does not open with it: it was altered or moved.`);
  }
}

/** A jsonb value as a driver gives it: parsed (node-postgres, PGlite) or as text (Neon's raw text mode). */
export function jsonOf<T>(value: T | string | null | undefined): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/** A row as stored: its plain columns (null once sealed), the key it is sealed under, and the blob. */
export type StoredPerson = { [K in keyof PersonalData]: PersonalData[K] | null } & {
  key_id: string | null;
  sealed: string | null;
};

/** The person a stored row holds, opened with whichever key it names. */
export function personOf(keys: DataKeys | null, row: StoredPerson): PersonalData {
  if (row.key_id === null || row.sealed === null) {
    return {
      name: row.name,
      email: row.email ?? "",
      message: row.message,
      organization: row.organization ?? null,
      why: row.why ?? null,
      connect: row.connect ?? null,
      answers: jsonOf(row.answers),
    };
  }
  const key = [keys?.current, keys?.previous].find((candidate) => candidate?.id === row.key_id);
  if (!key) throw new DataKeyError(`A row is sealed under key ${row.key_id}, which DATA_KEY is not.`);
  const person = open(key, row.sealed, row.email ?? "");
  return { ...person, answers: person.answers ?? null };
}

/** The columns to write for a person: plain without a key, else the address hash, the key's id and the blob. */
export function columnsOf(keys: DataKeys | null, person: PersonalData): StoredPerson {
  if (!keys) return { ...person, answers: person.answers ?? null, key_id: null, sealed: null };
  const email = addressHash(keys.current, person.email);
  return {
    name: null,
    email,
    message: null,
    organization: null,
    why: null,
    connect: null,
    answers: null,
    key_id: keys.current.id,
    sealed: seal(keys.current, person, email),
  };
}
