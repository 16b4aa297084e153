/**
 * The waitlist's SQL and the store built on it: every statement the sign-up path and the operators run is here,
 * side by side, so one read shows what touches the table (links and tokens: consent-store.ts; invitations:
 * invite-store.ts).
 */
import { ATTRIBUTION_FIELDS, type Attribution, NO_ATTRIBUTION } from "../lib/waitlist/attribution";
import { type ConsentStore, createConsentStore } from "./consent-store";
import type { Db } from "./db/types";
import { ENTRY_STATUSES, type EntryStatus, type WaitlistEntry } from "./entry";
import { createInviteStore, type InviteStore } from "./invite-store";

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
  insert: `INSERT INTO waitlist (name, email, message, status, source, medium, campaign, referrer, page)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
  count: `SELECT status, count(*)::int AS count FROM waitlist GROUP BY status`,
  list: `SELECT created_at, name, email, message, status, invited_at, joined_at, source, medium, campaign, referrer, page
    FROM waitlist
    WHERE ($1::timestamptz IS NULL OR created_at >= $1::timestamptz) AND ($2::boolean IS NOT TRUE OR status = 'confirmed')
    ORDER BY id`,
  /** The newest sign-ups ($1 from offset $2), those whose address contains $3 when it is given; and how many match. */
  newest: `SELECT id, created_at, email, name, status, source, count(*) OVER ()::int AS matching FROM waitlist
    WHERE $3::text IS NULL OR strpos(lower(email), lower($3::text)) > 0
    ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
  /** Sign-ups of the last $1 days by source, medium, campaign and referring site: the $2 most of each. */
  breakdown: `WITH recent AS (SELECT * FROM waitlist WHERE created_at >= current_date - ($1::int - 1)),
    counted AS (
      SELECT 'source' AS field, source AS value, count(*)::int AS count FROM recent GROUP BY source
      UNION ALL SELECT 'medium', medium, count(*)::int FROM recent GROUP BY medium
      UNION ALL SELECT 'campaign', campaign, count(*)::int FROM recent GROUP BY campaign
      UNION ALL SELECT 'referrer', referrer, count(*)::int FROM recent GROUP BY referrer
    ), ranked AS (
      SELECT *, row_number() OVER (PARTITION BY field ORDER BY count DESC, value NULLS LAST) AS rank FROM counted
    )
    SELECT field, value, count FROM ranked WHERE rank <= $2 ORDER BY field, rank`,
  secret: "SELECT value FROM waitlist_secret WHERE name = 'server'",
  /** An erasure: the entry of address $1 (any case) and, with it, its tokens. */
  erase: "DELETE FROM waitlist WHERE lower(email) = lower($1) RETURNING id",
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(w.id)::int AS count
    FROM generate_series(current_date - ($1::int - 1), current_date, interval '1 day') AS d(day)
    LEFT JOIN waitlist w ON w.created_at >= d.day AND w.created_at < d.day + interval '1 day'
    GROUP BY d.day ORDER BY d.day`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $8) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), added AS (
      INSERT INTO waitlist (name, email, message, status, source, medium, campaign, referrer, page)
      SELECT $5::text, $6::text, $7::text, $9::text, $10::text, $11::text, $12::text, $13::text, $14::text
      FROM hit, previous
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
   * Pending entries whose last sign-up or confirmation e-mail is older than $1 hours, and none of whose
   * confirmation links still works (whatever the age asked for): counted, and deleted (their tokens with them)
   * when $2 is true.
   */
  purgePending: `WITH old AS (
      SELECT id FROM waitlist w WHERE status = 'pending'
        AND greatest(created_at, coalesce(confirmation_sent_at, created_at)) < now() - make_interval(hours => $1::int)
        AND NOT EXISTS (
          SELECT 1 FROM waitlist_token t WHERE t.waitlist_id = w.id AND t.purpose = 'confirm' AND t.expires_at > now()
        )
    ), purged AS (
      DELETE FROM waitlist WHERE $2::boolean AND id IN (SELECT id FROM old) RETURNING id
    )
    SELECT (SELECT count(*)::int FROM old) AS matched, (SELECT count(*)::int FROM purged) AS purged`,
} as const;

export interface ExportedEntry extends Omit<WaitlistEntry, "attribution">, Attribution {
  created_at: string;
  status: EntryStatus;
  invited_at: string | null;
  joined_at: string | null;
}

export type BreakdownField = "source" | "medium" | "campaign" | "referrer";
export const BREAKDOWN_FIELDS: readonly BreakdownField[] = ["source", "medium", "campaign", "referrer"];

/** An entry as the console lists it. */
export type ListedEntry = {
  created_at: string;
  email: string;
  name: string | null;
  status: EntryStatus;
  source: string | null;
};

export type StatusCounts = Record<EntryStatus, number> & { total: number };

/** A client's attempts in this window and the previous one, and the sliding estimate made of them. */
export interface RateCount {
  estimate: number;
  attempts: number;
  previous: number;
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
  /** Waves of invitations and the product's redemption of their codes (invitations.ts). */
  readonly invites: InviteStore;
  /** Adds an entry; a repeated address (any case) adds nothing. Resolves to whether a row was added. */
  add(entry: WaitlistEntry, status?: EntryStatus): Promise<boolean>;
  /** Every entry, whatever its status. */
  count(): Promise<number>;
  /** Entries by status (every status, 0 when none), and their total. */
  countByStatus(): Promise<StatusCounts>;
  /** A page of the newest entries, only those whose address contains `search` when given; and how many match. */
  newest(limit: number, offset: number, search?: string): Promise<{ rows: ListedEntry[]; matching: number }>;
  /** Sign-ups of the last `days` days by source, medium, campaign and referring site (null: none known), most first. */
  breakdown(
    days: number,
    limit: number,
  ): Promise<Record<BreakdownField, Array<{ value: string | null; count: number }>>>;
  /** The server's random secret, made once by the database (migration 0005), read once per store. */
  secret(): Promise<Buffer>;
  /** Deletes the entry of `email` (any case) and its tokens: an erasure request. Resolves to whether there was one. */
  erase(email: string): Promise<boolean>;
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
  ): Promise<RateCount & { added: boolean }>;
  /** Counts one attempt of `clientKey` in `window` (nothing else); resolves to the sliding estimate and its parts. */
  hit(clientKey: string, window: RateWindow): Promise<RateCount>;
  close(): Promise<void>;
}

type Times = "created_at" | "invited_at" | "joined_at";

/** The entry's attribution as the five statement parameters, in ATTRIBUTION_FIELDS order. */
const sources = (entry: WaitlistEntry) =>
  ATTRIBUTION_FIELDS.map((field) => (entry.attribution ?? NO_ATTRIBUTION)[field]);

function rateCount(row: { attempts: number; previous: number } | undefined, window: RateWindow): RateCount {
  const attempts = Number(row?.attempts ?? 1);
  const previous = Number(row?.previous ?? 0);
  return { estimate: attempts + previous * window.previousWeight, attempts, previous };
}

const previousStart = (window: RateWindow) => new Date(window.start.getTime() - window.windowMs).toISOString();

export function createStore(db: Db): Store {
  let secret: Promise<Buffer> | undefined;
  return {
    db,
    consent: createConsentStore(db),
    invites: createInviteStore(db),
    async add(entry, status = "confirmed") {
      const rows = await db.query(SQL.insert, [entry.name, entry.email, entry.message, status, ...sources(entry)]);
      return rows.length === 1;
    },
    async count() {
      return (await this.countByStatus()).total;
    },
    async countByStatus() {
      const rows = await db.query<{ status: EntryStatus; count: number }>(SQL.count);
      const counts = Object.fromEntries(ENTRY_STATUSES.map((status) => [status, 0])) as StatusCounts;
      counts.total = 0;
      for (const row of rows) {
        counts[row.status] = Number(row.count);
        counts.total += Number(row.count);
      }
      return counts;
    },
    async newest(limit, offset, search) {
      const rows = await db.query<ListedEntry & { created_at: Date | string; matching: number }>(SQL.newest, [
        limit,
        offset,
        search || null,
      ]);
      // Counted beside the page (a window over the matches), so a page past the last one reads 0.
      const matching = Number(rows[0]?.matching ?? 0);
      return {
        rows: rows.map(({ created_at, email, name, status, source }) => ({
          created_at: new Date(created_at).toISOString(),
          email,
          name,
          status,
          source,
        })),
        matching,
      };
    },
    async breakdown(days, limit) {
      const rows = await db.query<{ field: BreakdownField; value: string | null; count: number }>(SQL.breakdown, [
        days,
        limit,
      ]);
      const result = Object.fromEntries(BREAKDOWN_FIELDS.map((field) => [field, []])) as unknown as Record<
        BreakdownField,
        Array<{ value: string | null; count: number }>
      >;
      for (const row of rows) result[row.field].push({ value: row.value, count: Number(row.count) });
      return result;
    },
    secret() {
      secret ??= db.query<{ value: string }>(SQL.secret).then(([row]) => {
        if (!row) throw new Error("The server's secret is missing: apply the migrations (npm run db:migrate).");
        return Buffer.from(row.value, "hex");
      });
      // A failed read (the database down) is tried again next time.
      secret.catch(() => {
        secret = undefined;
      });
      return secret;
    },
    async erase(email) {
      return (await db.query(SQL.erase, [email])).length > 0;
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
        ...sources(entry),
      ];
      const [row] = await db.query<{ attempts: number; previous: number; added: number }>(SQL.hitAndInsert, params);
      return { ...rateCount(row, window), added: Number(row?.added ?? 0) === 1 };
    },
    async hit(key, window) {
      const params = [key, window.start.toISOString(), previousStart(window)];
      const [row] = await db.query<{ attempts: number; previous: number }>(SQL.hit, params);
      return rateCount(row, window);
    },
    async purgePending(hours, apply) {
      const [row] = await db.query<{ matched: number; purged: number }>(SQL.purgePending, [hours, apply]);
      return { matched: Number(row?.matched ?? 0), purged: Number(row?.purged ?? 0) };
    },
    async list(since, options = {}) {
      type Row = Omit<ExportedEntry, "created_at" | "invited_at" | "joined_at"> & Record<Times, Date | string | null>;
      const rows = await db.query<Row>(SQL.list, [since ? since.toISOString() : null, options.confirmedOnly ?? false]);
      return rows.map((row) => ({
        ...row,
        created_at: new Date(row.created_at ?? 0).toISOString(),
        invited_at: row.invited_at === null ? null : new Date(row.invited_at).toISOString(),
        joined_at: row.joined_at === null ? null : new Date(row.joined_at).toISOString(),
      }));
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
