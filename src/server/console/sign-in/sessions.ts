/**
 * The console's sign-in, in SQL: sessions (12 hours, ended server-side at sign-out) and single-use sign-in links
 * (15 minutes). Ids and tokens are 32 random bytes; only their SHA-256 is stored. Times are the database's.
 */

import { hashToken, newToken } from "../../crypto/tokens";
import type { Db } from "../../db/types";

export const SESSION_HOURS = 12;
export const SIGN_IN_LINK_MINUTES = 15;
/** 32 random bytes as base64url: the only shape an id or a token has. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const SQL = {
  /** A new session; ended ones older than a day are dropped on the way. */
  open: `WITH pruned AS (DELETE FROM admin_session WHERE expires_at < now() - interval '1 day')
    INSERT INTO admin_session (id_hash, admin, expires_at) VALUES ($1, $2, now() + make_interval(hours => ${SESSION_HOURS}))`,
  find: "SELECT admin FROM admin_session WHERE id_hash = $1 AND expires_at > now()",
  end: "DELETE FROM admin_session WHERE id_hash = $1",
  issue: `WITH pruned AS (DELETE FROM admin_sign_in WHERE expires_at < now() - interval '1 day')
    INSERT INTO admin_sign_in (token_hash, admin, expires_at) VALUES ($1, $2, now() + make_interval(mins => ${SIGN_IN_LINK_MINUTES}))`,
  use: `UPDATE admin_sign_in SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
    RETURNING admin`,
} as const;

export interface Sessions {
  /** Opens a session for `admin` (an address, or "token"); resolves to the id for the cookie. */
  open(admin: string): Promise<string>;
  /** Whose session this is, while it lasts; null for an unknown, ended or expired one. */
  find(id: string): Promise<string | null>;
  end(id: string): Promise<void>;
  /** A sign-in link's token for `admin`. */
  issueSignIn(admin: string): Promise<string>;
  /** Uses a sign-in token (once, in time): whose it was, or null. */
  redeemSignIn(token: string): Promise<string | null>;
}

export function createSessions(db: Db): Sessions {
  /** A new secret for `admin`, stored as its hash by `sql`: a session or a sign-in link alike. */
  const mint = async (sql: string, admin: string) => {
    const { token: value, hash } = newToken();
    await db.query(sql, [hash, admin]);
    return value;
  };
  /** The admin a secret names through `sql` (found, or used up), or null; a malformed one never reaches SQL. */
  const adminBy = async (sql: string, secret: string) => {
    if (!SECRET_PATTERN.test(secret)) return null;
    const [row] = await db.query<{ admin: string }>(sql, [hashToken(secret)]);
    return row?.admin ?? null;
  };
  return {
    open: (admin) => mint(SQL.open, admin),
    find: (id) => adminBy(SQL.find, id),
    async end(id) {
      if (SECRET_PATTERN.test(id)) await db.query(SQL.end, [hashToken(id)]);
    },
    issueSignIn: (admin) => mint(SQL.issue, admin),
    redeemSignIn: (token) => adminBy(SQL.use, token),
  };
}
