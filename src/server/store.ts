import type { WaitlistEntry } from "../lib/waitlist/entry";
import type { Db } from "./db/types";

/** Counts one attempt of client $1 in the window starting at $2; returns the window's attempts. */
const HIT = `INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts`;

/** The first attempt of a window drops windows that started before $3 (the one before it), in the same statement. */
const PRUNE = `DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz AND (SELECT attempts FROM hit) = 1`;

/**
 * The one place that holds the waitlist's SQL; every driver runs exactly these statements. Each call of the
 * request path is one statement, so a sign-up costs one database round trip.
 */
export const SQL = {
  insert:
    "INSERT INTO waitlist (name, email, message) VALUES ($1, $2, $3) ON CONFLICT ((lower(email))) DO NOTHING RETURNING id",
  count: "SELECT count(*)::int AS count FROM waitlist",
  list: `SELECT created_at, name, email, message FROM waitlist
    WHERE $1::timestamptz IS NULL OR created_at >= $1::timestamptz ORDER BY id`,
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(w.id)::int AS count
    FROM generate_series(current_date - ($1::int - 1), current_date, interval '1 day') AS d(day)
    LEFT JOIN waitlist w ON w.created_at >= d.day AND w.created_at < d.day + interval '1 day'
    GROUP BY d.day ORDER BY d.day`,
  byEmail: "SELECT name, email, message FROM waitlist WHERE lower(email) = lower($1)",
  /** Counts an attempt (and prunes on a window's first); returns the window's attempts. */
  hit: `WITH hit AS (${HIT}), pruned AS (${PRUNE}) SELECT attempts FROM hit`,
  /** Counts an attempt, prunes on a window's first, and inserts only when within the limit ($4). */
  hitAndInsert: `WITH hit AS (${HIT}), pruned AS (${PRUNE}), added AS (
      INSERT INTO waitlist (name, email, message)
      SELECT $5::text, $6::text, $7::text FROM hit WHERE hit.attempts <= $4::int
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id
    )
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT count(*)::int FROM added) AS added`,
} as const;

export interface ExportedEntry extends WaitlistEntry {
  created_at: string;
}

export interface Store {
  readonly db: Db;
  /** Adds an entry; a repeated address (any case) adds nothing. Resolves to whether a row was added. */
  add(entry: WaitlistEntry): Promise<boolean>;
  count(): Promise<number>;
  find(email: string): Promise<WaitlistEntry | null>;
  /** Every entry, oldest first; only those created on or after `since` when given. */
  list(since?: Date): Promise<ExportedEntry[]>;
  /** Sign-ups per day for the last `days` days (UTC), today included, days without sign-ups as 0. */
  perDay(days: number): Promise<Array<{ day: string; count: number }>>;
  /**
   * Counts one attempt of `clientKey` in the window starting at `windowStart` and returns the window's total.
   * The first attempt of a window prunes windows older than the previous one.
   */
  hit(clientKey: string, windowStart: Date, windowMs: number): Promise<number>;
  /**
   * `hit`, then `add` only if the window's attempts are at most `max`, in one statement. Resolves to the
   * window's attempts and whether a row was added.
   */
  hitAndAdd(
    clientKey: string,
    windowStart: Date,
    windowMs: number,
    max: number,
    entry: WaitlistEntry,
  ): Promise<{ attempts: number; added: boolean }>;
  close(): Promise<void>;
}

export function createStore(db: Db): Store {
  /** The window before `windowStart`: older windows are pruned. */
  const pruneBefore = (windowStart: Date, windowMs: number) => new Date(windowStart.getTime() - windowMs).toISOString();

  return {
    db,
    async add(entry) {
      const rows = await db.query(SQL.insert, [entry.name, entry.email, entry.message]);
      return rows.length === 1;
    },
    async count() {
      const [row] = await db.query<{ count: number }>(SQL.count);
      return Number(row?.count ?? 0);
    },
    async find(email) {
      const [row] = await db.query<{ name: string | null; email: string; message: string | null }>(SQL.byEmail, [
        email,
      ]);
      return row ?? null;
    },
    async hit(clientKey, windowStart, windowMs) {
      const params = [clientKey, windowStart.toISOString(), pruneBefore(windowStart, windowMs)];
      const [row] = await db.query<{ attempts: number }>(SQL.hit, params);
      return Number(row?.attempts ?? 1);
    },
    async hitAndAdd(key, windowStart, windowMs, max, entry) {
      const params = [
        key,
        windowStart.toISOString(),
        pruneBefore(windowStart, windowMs),
        max,
        entry.name,
        entry.email,
        entry.message,
      ];
      const [row] = await db.query<{ attempts: number; added: number }>(SQL.hitAndInsert, params);
      return { attempts: Number(row?.attempts ?? 1), added: Number(row?.added ?? 0) === 1 };
    },
    async list(since) {
      const rows = await db.query<{
        created_at: Date | string;
        name: string | null;
        email: string;
        message: string | null;
      }>(SQL.list, [since ? since.toISOString() : null]);
      return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
    },
    async perDay(days) {
      return (await db.query<{ day: string; count: number }>(SQL.perDay, [days])).map((r) => ({
        ...r,
        count: Number(r.count),
      }));
    },
    close: () => db.close(),
  };
}
