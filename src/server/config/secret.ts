/**
 * SERVER_SECRET as config/index.ts reads it: the root of every key the server derives (crypto/secret.ts), set by the
 * deployer outside the database. Its old name, RATE_LIMIT_SECRET, is still read. What counts as long enough, once:
 * the bytes the value stands for, at least MIN_SECRET_BYTES of them (secretBytes). Beside config/index.ts, which it
 * serves.
 */

/** The fewest random bytes SERVER_SECRET must hold: what `openssl rand -base64 32` makes. */
export const MIN_SECRET_BYTES = 32;

export const SECRET_VARIABLE = "SERVER_SECRET";
/** SERVER_SECRET's name until round 6: still read, with a line saying to rename it. */
export const OLD_SECRET_VARIABLE = "RATE_LIMIT_SECRET";

/**
 * The server's secret as a setup check shows it, never its value: "set" (SERVER_SECRET, usable), "legacy name"
 * (usable, but read from RATE_LIMIT_SECRET: rename it), "missing" (neither set: status pages show no invite code,
 * and background jobs run only where one process does everything), "too short", or "conflict" (both set, and
 * different); the last two stop everything (serverSecretProblem says what to do).
 */
export type ServerSecretState = "set" | "legacy name" | "missing" | "too short" | "conflict";

export interface ServerSecretSettings {
  /** The server's secret (SERVER_SECRET, else RATE_LIMIT_SECRET), as written; null: unset, or refused (below). */
  serverSecret: string | null;
  /** The variable it was read from; null when neither is set. */
  serverSecretName: typeof SECRET_VARIABLE | typeof OLD_SECRET_VARIABLE | null;
  /** Its state, for people and setup checks (serverSecretStatus). */
  serverSecretState: ServerSecretState;
  /** Set when the secret cannot be used: one line naming the variable; the CLI, npm start and functions stop. */
  serverSecretProblem: string | null;
}

/**
 * How many bytes a secret stands for, counted as it is most likely written: hex digits (only 0-9 and a-f, an even
 * number of them) two to a byte; else base64 or base64url (only letters, digits, + / - _, and = at the end) four
 * characters to three bytes; else its UTF-8 bytes. So `openssl rand -hex 32` (64 digits) and `openssl rand -base64
 * 32` (44 characters) both count 32, while a 32-letter word counts 24. The secret is used as written (its bytes as
 * typed are the HMAC key): this only decides whether it is long enough.
 */
export function secretBytes(value: string): number {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(value)) return value.length / 2;
  const base64 = /^([A-Za-z0-9+/_-]+)={0,2}$/.exec(value);
  if (base64?.[1]) return Math.floor((base64[1].length * 3) / 4);
  return Buffer.byteLength(value, "utf8");
}

/** The line that says to rename RATE_LIMIT_SECRET (logged once per process, printed by npm start and the CLI). */
export const RENAME_SECRET = `${OLD_SECRET_VARIABLE} is the old name of ${SECRET_VARIABLE}: rename it (the value stays the same).`;

/** What a missing secret costs, for a setup check: said without it, never an error (a first deploy still works). */
export const MISSING_SECRET = `${SECRET_VARIABLE} is not set: status pages offer no invite code and a deployed site's background jobs (updates, waves) do not start. Make one with \`openssl rand -base64 32\`.`;

const tooShort = (name: string, bytes: number) =>
  `${name} holds ${bytes} bytes; it must hold at least ${MIN_SECRET_BYTES} random bytes (64 hex digits or 44 base64 characters): make one with \`openssl rand -base64 32\`.`;

/** SERVER_SECRET (or RATE_LIMIT_SECRET): the secret, its variable, or the one line that says what to fix. */
export function serverSecretConfig(env: Record<string, string | undefined>): ServerSecretSettings {
  const current = env[SECRET_VARIABLE]?.trim() || null;
  const old = env[OLD_SECRET_VARIABLE]?.trim() || null;
  const refused = (state: ServerSecretState, name: ServerSecretSettings["serverSecretName"], problem: string) => ({
    serverSecret: null,
    serverSecretName: name,
    serverSecretState: state,
    serverSecretProblem: problem,
  });
  if (current && old && current !== old) {
    const problem = `${SECRET_VARIABLE} and ${OLD_SECRET_VARIABLE} (its old name) are both set and differ: keep ${SECRET_VARIABLE} and remove ${OLD_SECRET_VARIABLE}.`;
    return refused("conflict", SECRET_VARIABLE, problem);
  }
  const secret = current ?? old;
  const name = current ? SECRET_VARIABLE : old ? OLD_SECRET_VARIABLE : null;
  if (!secret || !name) {
    return { serverSecret: null, serverSecretName: null, serverSecretState: "missing", serverSecretProblem: null };
  }
  const bytes = secretBytes(secret);
  if (bytes < MIN_SECRET_BYTES) return refused("too short", name, tooShort(name, bytes));
  const state = name === SECRET_VARIABLE ? "set" : "legacy name";
  return { serverSecret: secret, serverSecretName: name, serverSecretState: state, serverSecretProblem: null };
}

/**
 * The server's secret for a setup check (`doctor`, the console's attention list): its state, the variable it was
 * read from, and the line to show (the problem, or the rename), never the value.
 */
export function serverSecretStatus(settings: ServerSecretSettings): {
  state: ServerSecretState;
  variable: string | null;
  line: string | null;
} {
  const line =
    settings.serverSecretProblem ??
    (settings.serverSecretState === "legacy name"
      ? RENAME_SECRET
      : settings.serverSecretState === "missing"
        ? MISSING_SECRET
        : null);
  return { state: settings.serverSecretState, variable: settings.serverSecretName, line };
}
