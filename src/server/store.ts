import type { Db } from "./db/types";
import type { WaitlistEntry } from "./entry";

/** Counts one attempt of client $1 in the window starting at $2; returns the window's attempts. */
const HIT = `INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts`;

/** The previous window ($3 is its start): its attempts count in the sliding estimate, weighted. */
const PREVIOUS = `SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts`;

/** The first attempt of a window drops windows that started before the previous one, in the same statement. */
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
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $8) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), added AS (
      INSERT INTO waitlist (name, email, message)
      SELECT $5::text, $6::text, $7::text FROM hit, previous
      WHERE hit.attempts + previous.attempts * $8::float8 <= $4::int
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id
    )
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT count(*)::int FROM added) AS added`,
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
   * Counts one sign-up attempt of `clientKey` in `window` and adds `entry` only while the client's sliding
   * estimate is within `allowance`, in one statement. Resolves to the estimate and whether a row was added.
   */
  hitAndAdd(
    clientKey: string,
    window: { start: Date; windowMs: number; previousWeight: number },
    allowance: number,
    entry: WaitlistEntry,
  ): Promise<{ estimate: number; added: boolean }>;
  close(): Promise<void>;
}

export function createStore(db: Db): Store {
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
    async hitAndAdd(key, window, allowance, entry) {
      const previousStart = new Date(window.start.getTime() - window.windowMs).toISOString();
      const params = [
        key,
        window.start.toISOString(),
        previousStart,
        allowance,
        entry.name,
        entry.email,
        entry.message,
        window.previousWeight,
      ];
      const [row] = await db.query<{ attempts: number; previous: number; added: number }>(SQL.hitAndInsert, params);
      const estimate = Number(row?.attempts ?? 1) + Number(row?.previous ?? 0) * window.previousWeight;
      return { estimate, added: Number(row?.added ?? 0) === 1 };
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
