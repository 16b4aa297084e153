/**
 * The waitlist's SQL and the store built on it, ~180 lines: every statement the sign-up path and the operators
 * run is here, side by side, so one read shows what touches the table (links and tokens: consent-store.ts).
 */
import { type ConsentStore, createConsentStore } from "./consent-store";
import type { Db } from "./db/types";
import type { EntryStatus, WaitlistEntry } from "./entry";

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
  insert: `INSERT INTO waitlist (name, email, message, status) VALUES ($1, $2, $3, $4)
    ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
  count: `SELECT count(*)::int AS count, count(*) FILTER (WHERE status = 'confirmed')::int AS confirmed
    FROM waitlist`,
  list: `SELECT created_at, name, email, message, status FROM waitlist
    WHERE ($1::timestamptz IS NULL OR created_at >= $1::timestamptz) AND ($2::boolean IS NOT TRUE OR status = 'confirmed')
    ORDER BY id`,
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(w.id)::int AS count
    FROM generate_series(current_date - ($1::int - 1), current_date, interval '1 day') AS d(day)
    LEFT JOIN waitlist w ON w.created_at >= d.day AND w.created_at < d.day + interval '1 day'
    GROUP BY d.day ORDER BY d.day`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $8) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), added AS (
      INSERT INTO waitlist (name, email, message, status)
      SELECT $5::text, $6::text, $7::text, $9::text FROM hit, previous
      WHERE hit.attempts + previous.attempts * $8::float8 <= $4::int
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id
    )
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT count(*)::int FROM added) AS added`,
  /** Counts an attempt of something other than a sign-up (a removal request) under the same allowance. */
  hit: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous`,
  /**
   * Pending entries whose last sign-up or confirmation e-mail is older than $1 hours: counted, and deleted
   * (their tokens with them) when $2 is true.
   */
  purgePending: `WITH old AS (
      SELECT id FROM waitlist WHERE status = 'pending'
        AND greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - make_interval(hours => $1::int)
    ), purged AS (
      DELETE FROM waitlist WHERE $2::boolean AND id IN (SELECT id FROM old) RETURNING id
    )
    SELECT (SELECT count(*)::int FROM old) AS matched, (SELECT count(*)::int FROM purged) AS purged`,
} as const;

export interface ExportedEntry extends WaitlistEntry {
  created_at: string;
  status: EntryStatus;
}

/** One window of the sliding rate limit (see rate-limit.ts: rateWindow). */
export interface RateWindow {
  start: Date;
  windowMs: number;
  previousWeight: number;
}

export interface Store {
  readonly db: Db;
  /** Confirmation and removal links (consent.ts). */
  readonly consent: ConsentStore;
  /** Adds an entry; a repeated address (any case) adds nothing. Resolves to whether a row was added. */
  add(entry: WaitlistEntry, status?: EntryStatus): Promise<boolean>;
  /** Every entry, pending or confirmed. */
  count(): Promise<number>;
  /** Entries by status. */
  countByStatus(): Promise<{ total: number; confirmed: number; pending: number }>;
  /** Every entry, oldest first; only those created on or after `since`, or only confirmed ones, when asked. */
  list(since?: Date, options?: { confirmedOnly?: boolean }): Promise<ExportedEntry[]>;
  /** Pending entries untouched for `hours` hours: how many, and (only with `apply`) deletes them. */
  purgePending(hours: number, apply: boolean): Promise<{ matched: number; purged: number }>;
  /** Sign-ups per day for the last `days` days (UTC), today included, days without sign-ups as 0. */
  perDay(days: number): Promise<Array<{ day: string; count: number }>>;
  /**
   * Counts one sign-up attempt of `clientKey` in `window` and adds `entry` only while the client's sliding
   * estimate is within `allowance`, in one statement. Resolves to the estimate and whether a row was added.
   */
  hitAndAdd(
    clientKey: string,
    window: RateWindow,
    allowance: number,
    entry: WaitlistEntry,
    status?: EntryStatus,
  ): Promise<{ estimate: number; added: boolean }>;
  /** Counts one attempt of `clientKey` in `window` (nothing else); resolves to the sliding estimate. */
  hit(clientKey: string, window: RateWindow): Promise<number>;
  close(): Promise<void>;
}

const previousStart = (window: RateWindow) => new Date(window.start.getTime() - window.windowMs).toISOString();

export function createStore(db: Db): Store {
  return {
    db,
    consent: createConsentStore(db),
    async add(entry, status = "confirmed") {
      const rows = await db.query(SQL.insert, [entry.name, entry.email, entry.message, status]);
      return rows.length === 1;
    },
    async count() {
      return (await this.countByStatus()).total;
    },
    async countByStatus() {
      const [row] = await db.query<{ count: number; confirmed: number }>(SQL.count);
      const total = Number(row?.count ?? 0);
      const confirmed = Number(row?.confirmed ?? 0);
      return { total, confirmed, pending: total - confirmed };
    },
    async hitAndAdd(key, window, allowance, entry, status = "confirmed") {
      const params = [
        key,
        window.start.toISOString(),
        previousStart(window),
        allowance,
        entry.name,
        entry.email,
        entry.message,
        window.previousWeight,
        status,
      ];
      const [row] = await db.query<{ attempts: number; previous: number; added: number }>(SQL.hitAndInsert, params);
      const estimate = Number(row?.attempts ?? 1) + Number(row?.previous ?? 0) * window.previousWeight;
      return { estimate, added: Number(row?.added ?? 0) === 1 };
    },
    async hit(key, window) {
      const params = [key, window.start.toISOString(), previousStart(window)];
      const [row] = await db.query<{ attempts: number; previous: number }>(SQL.hit, params);
      return Number(row?.attempts ?? 1) + Number(row?.previous ?? 0) * window.previousWeight;
    },
    async purgePending(hours, apply) {
      const [row] = await db.query<{ matched: number; purged: number }>(SQL.purgePending, [hours, apply]);
      return { matched: Number(row?.matched ?? 0), purged: Number(row?.purged ?? 0) };
    },
    async list(since, options = {}) {
      const rows = await db.query<{
        created_at: Date | string;
        name: string | null;
        email: string;
        message: string | null;
        status: EntryStatus;
      }>(SQL.list, [since ? since.toISOString() : null, options.confirmedOnly ?? false]);
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
