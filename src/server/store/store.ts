/**
 * The waitlist's SQL and the store built on it: every statement the sign-up path and the operators run is here,
 * side by side, so one read shows what touches the table (links and tokens: consent.ts; invitations:
 * invites.ts).
 */
import { ATTRIBUTION_FIELDS, type Attribution, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import {
  addressKeys,
  columnsOf,
  DataKeyError,
  type DataKeys,
  PERSON_COLUMNS,
  type PersonalData,
  personOf,
  STORED_PERSON_FIELDS,
  type StoredPerson,
} from "../data-key";
import type { Db } from "../db/types";
import { ENTRY_STATUSES, type EntryStatus, type WaitlistEntry } from "../entry";
import { type ConsentStore, createConsentStore } from "./consent";
import { createInviteStore, type InviteStore } from "./invites";

/** Counts one attempt of client $1 in the window starting at $2; returns the window's attempts. */
const HIT = `INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ($1, $2)
  ON CONFLICT (client_key, window_start) DO UPDATE SET attempts = waitlist_rate_limit.attempts + 1
  RETURNING attempts`;

/** The previous window ($3 is its start): its attempts count in the sliding estimate, weighted. */
const PREVIOUS = `SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
  WHERE client_key = $1 AND window_start = $3::timestamptz), 0) AS attempts`;

/**
 * The allowance's verdict, decided here and only here: this window's attempts plus the previous window's weighted
 * by $5 (the share of it still inside the sliding window) within the allowance $4.
 */
const VERDICT = `SELECT hit.attempts + previous.attempts * $5::float8 <= $4::int AS allowed FROM hit, previous`;

/**
 * The first attempt of a window drops windows that started before the previous one, in the same statement; kept an
 * hour longer, the longest window any allowance counts in (the console's sign-in e-mails, per admin and hour), so
 * a shorter window's first attempt never drops a window an hourly allowance still reads.
 */
const PRUNE = `DELETE FROM waitlist_rate_limit
  WHERE window_start < $3::timestamptz - interval '1 hour' AND (SELECT attempts FROM hit) = 1`;

/** Today in UTC, whatever the session's time zone: the tallies count days of created_at in UTC. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

/**
 * Whether any row is sealed: a process without DATA_KEY then writes nothing in clear beside them (the sign-up's
 * last parameter says whether it seals). Read from the tally, so it costs the insert nothing.
 */
const SEALED_ROWS = "SELECT 1 FROM waitlist_tally WHERE key_id <> '' AND count > 0";

/** The columns a sign-up writes, in the order of its statement parameters. */
const ROW_COLUMNS = [...STORED_PERSON_FIELDS, "terms_version", "status", ...ATTRIBUTION_FIELDS];
/** The sign-up's values as parameters $first…, one per ROW_COLUMNS. */
const rowValues = (first: number) => ROW_COLUMNS.map((_, i) => `$${first + i}::text`).join(", ");
/**
 * Adds the row unless its address is listed under any of its keys ($keys: hashed under this key or the previous
 * one, or plain), so a row not yet sealed still refuses its duplicate; and, unless it is sealed (the parameter
 * after its values), only while no row is.
 */
const insertRow = (keys: number, first: number, from = "") => `INSERT INTO waitlist (${ROW_COLUMNS.join(", ")})
      SELECT ${rowValues(first)} ${from}
      ${from ? "AND" : "WHERE"} NOT EXISTS (SELECT 1 FROM waitlist WHERE lower(email) = ANY($${keys}::text[]))
      AND ($${first + ROW_COLUMNS.length}::boolean OR NOT EXISTS (${SEALED_ROWS}))
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id`;

/**
 * The one place that holds the waitlist's SQL; every driver runs exactly these statements. Each call of the
 * request path is one statement, so a sign-up costs one database round trip.
 */
export const SQL = {
  /** Adds a row (see insertRow); says whether it did, and whether any row is sealed. */
  insert: `WITH added AS (${insertRow(1, 2)})
    SELECT (SELECT count(*)::int FROM added) AS added, EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /** Rows by status, from the tally the database keeps beside the table (migration 0008), never a count of it. */
  count: `SELECT status, sum(count)::bigint AS count FROM waitlist_tally GROUP BY status`,
  /**
   * A batch of the export: up to $4 entries after id $1, oldest first (since $2; only confirmed ones if $3; none
   * past id $5, when set: the end of a part of a download, export/parts.ts).
   */
  list: `SELECT id, created_at, ${PERSON_COLUMNS}, status, invited_at, joined_at, source, medium, campaign, referrer, page,
      terms_version, confirmed_at
    FROM waitlist
    WHERE id > $1::bigint AND ($5::bigint IS NULL OR id <= $5::bigint)
      AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
      AND ($3::boolean IS NOT TRUE OR status = 'confirmed')
    ORDER BY id LIMIT $4::int`,
  /** How many rows are plain, and how many are sealed under each key. */
  sealing: `SELECT nullif(key_id, '') AS key_id, sum(count)::bigint AS count FROM waitlist_tally
    GROUP BY key_id HAVING sum(count) > 0`,
  /** Up to $2 rows not sealed under key $1, oldest first: what `waitlist encrypt` seals next. */
  unsealed: `SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE key_id IS DISTINCT FROM $1 ORDER BY id LIMIT $2::int`,
  /**
   * Seals a batch in one statement (all of it or none): each row only if it is still as read ($5: the key it was
   * under), so a row changed meanwhile is left for the next batch.
   */
  seal: `UPDATE waitlist w SET name = NULL, message = NULL, organization = NULL, why = NULL, connect = NULL,
      email = u.email, key_id = $1, sealed = u.sealed
    FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS u(id, email, sealed, old_key)
    WHERE w.id = u.id AND w.key_id IS NOT DISTINCT FROM u.old_key
    RETURNING w.id`,
  /** Sign-ups of the last $1 days (UTC) by source, medium, campaign and referring site: the $2 most of each. */
  breakdown: `SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value NULLS LAST) AS rank
      FROM waitlist_day_tally WHERE day > ${TODAY} - $1::int AND field <> 'all'
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $2 ORDER BY field, rank`,
  secret: "SELECT value FROM waitlist_secret WHERE name = 'server'",
  /** An erasure: the entry of address $1 (any case) and, with it, its tokens. */
  erase: "DELETE FROM waitlist WHERE lower(email) = ANY($1::text[]) RETURNING id",
  /** Sign-ups per day (UTC) of the last $1 days, today included; a day without any reads 0. */
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(t.count, 0)::bigint AS count
    FROM generate_series(${TODAY} - ($1::int - 1), ${TODAY}, interval '1 day') AS d(day)
    LEFT JOIN waitlist_day_tally t ON t.day = d.day::date AND t.field = 'all' AND t.value IS NULL
    ORDER BY d.day`,
  /**
   * Counts an attempt, prunes on a window's first, and inserts only while the sliding estimate (this window's
   * attempts + the previous window's × $5) is within the allowance ($4).
   */
  hitAndInsert: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT}),
    added AS (${insertRow(6, 7, "FROM verdict WHERE verdict.allowed")})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed, (SELECT count(*)::int FROM added) AS added,
      EXISTS (${SEALED_ROWS}) AS sealed_rows`,
  /** Counts an attempt of something other than a sign-up (a removal request) under the same allowance ($4, $5). */
  hit: `WITH hit AS (${HIT}), previous AS (${PREVIOUS}), pruned AS (${PRUNE}), verdict AS (${VERDICT})
    SELECT (SELECT attempts FROM hit) AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed`,
  /**
   * The verdict `hit` would give client $1's next attempt, without counting it (nor pruning): this window's
   * attempts so far plus that one, under the same VERDICT. Resolves to the attempts so far.
   */
  peek: `WITH hit AS (SELECT coalesce((SELECT attempts FROM waitlist_rate_limit
        WHERE client_key = $1 AND window_start = $2::timestamptz), 0) + 1 AS attempts),
      previous AS (${PREVIOUS}), verdict AS (${VERDICT})
    SELECT (SELECT attempts FROM hit) - 1 AS attempts, (SELECT attempts FROM previous) AS previous,
      (SELECT allowed FROM verdict) AS allowed`,
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

export interface ExportedEntry extends PersonalData, Attribution {
  created_at: string;
  status: EntryStatus;
  invited_at: string | null;
  joined_at: string | null;
  /** The consent record: the terms agreed to at created_at, and when the address was confirmed. */
  terms_version: string | null;
  confirmed_at: string | null;
}

/** Which rows are plain and which sealed, under which key (by id). */
export interface Sealing {
  plain: number;
  sealed: Record<string, number>;
}

export type BreakdownField = "source" | "medium" | "campaign" | "referrer";
export const BREAKDOWN_FIELDS: readonly BreakdownField[] = ["source", "medium", "campaign", "referrer"];

export type StatusCounts = Record<EntryStatus, number> & { total: number };

/** The allowance's verdict on an attempt (decided by the statement that counted it), and the counts behind it. */
export interface RateCount {
  allowed: boolean;
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
  /** DATA_KEY's keys, or null: rows are written plain. */
  readonly dataKeys: DataKeys | null;
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
  list(since?: Date, options?: ListOptions): Promise<ExportedEntry[]>;
  /** Up to `limit` entries after the one with id `after` (0: from the first), and the id to go on from (null: done). */
  listPage(after: number, limit: number, since?: Date | undefined, options?: ListOptions): Promise<ListPage>;
  /** How many rows are plain and how many sealed under each key. */
  sealing(): Promise<Sealing>;
  /**
   * Throws a DataKeyError when a stored row is sealed under a key this process does not have. Checked once (until
   * it passes) before the first write: a wrong key never writes a row the right one cannot open.
   */
  checkDataKey(): Promise<void>;
  /** Seals up to `limit` rows not yet under the current key; resolves to how many it sealed and how many it read. */
  sealNext(limit: number): Promise<{ sealed: number; read: number }>;
  /** Pending entries untouched for `hours` hours: how many, and (only with `apply`) deletes them. */
  purgePending(hours: number, apply: boolean): Promise<{ matched: number; purged: number }>;
  /** Sign-ups per day for the last `days` days (UTC), today included, days without sign-ups as 0. */
  perDay(days: number): Promise<Array<{ day: string; count: number }>>;
  /**
   * Counts one sign-up attempt of `clientKey` in `window` and adds `entry` only while the client's sliding
   * estimate is within `allowance`, in one statement. Resolves to that statement's verdict and whether a row was
   * added: the caller acts on the verdict, never on a count of its own.
   */
  hitAndAdd(
    clientKey: string,
    window: RateWindow,
    allowance: number,
    entry: WaitlistEntry,
    status?: EntryStatus,
  ): Promise<RateCount & { added: boolean }>;
  /** Counts one attempt of `clientKey` in `window` (nothing else); resolves to the allowance's verdict and its counts. */
  hit(clientKey: string, window: RateWindow, allowance: number): Promise<RateCount>;
  /**
   * The verdict `hit` would give `clientKey`'s next attempt in `window`, counting nothing; `attempts` is this
   * window's so far (so `secondsUntilAccepted` says when a peek passes again).
   */
  peek(clientKey: string, window: RateWindow, allowance: number): Promise<RateCount>;
  close(): Promise<void>;
}

export interface ListOptions {
  confirmedOnly?: boolean;
  /** No entry past this id: the last of a part fixed when the download's page was made (export/parts.ts). */
  through?: number | undefined;
}
export interface ListPage {
  rows: ExportedEntry[];
  next: number | null;
}

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

/** The entry's attribution as the five statement parameters, in ATTRIBUTION_FIELDS order. */
const sources = (entry: WaitlistEntry) =>
  ATTRIBUTION_FIELDS.map((field) => (entry.attribution ?? NO_ATTRIBUTION)[field]);

type RateRow = { attempts: number; previous: number; allowed: boolean };

function rateCount(row: RateRow | undefined): RateCount {
  return { allowed: row?.allowed === true, attempts: Number(row?.attempts ?? 1), previous: Number(row?.previous ?? 0) };
}

const previousStart = (window: RateWindow) => new Date(window.start.getTime() - window.windowMs).toISOString();
/** The parameters $1–$5 of `hit` and `peek`: the client, this window, the previous one, the allowance, its weight. */
const rateParams = (key: string, window: RateWindow, allowance: number) => [
  key,
  window.start.toISOString(),
  previousStart(window),
  allowance,
  window.previousWeight,
];

export function createStore(db: Db, dataKeys: DataKeys | null = null): Store {
  let secret: Promise<Buffer> | undefined;
  /** The sign-up's row as statement parameters, in ROW_COLUMNS order; its personal data sealed when a key is set. */
  const rowParams = (entry: WaitlistEntry, status: EntryStatus) => {
    const person: PersonalData = {
      name: entry.name,
      email: entry.email,
      message: entry.message,
      organization: entry.organization ?? null,
      why: entry.why ?? null,
      connect: entry.connect ?? null,
    };
    const stored = columnsOf(dataKeys, person);
    return [
      ...STORED_PERSON_FIELDS.map((field) => stored[field]),
      entry.termsVersion ?? null,
      status,
      ...sources(entry),
      dataKeys !== null,
    ];
  };
  const page = async (after: number, limit: number, since?: Date, options: ListOptions = {}): Promise<ListPage> => {
    type Row = StoredPerson &
      Omit<ExportedEntry, keyof PersonalData | "created_at" | "invited_at" | "joined_at" | "confirmed_at"> & {
        id: number | string;
        created_at: Date | string;
        invited_at: Date | string | null;
        joined_at: Date | string | null;
        confirmed_at: Date | string | null;
      };
    const params = [
      after,
      since?.toISOString() ?? null,
      options.confirmedOnly ?? false,
      limit,
      options.through ?? null,
    ];
    const rows = await db.query<Row>(SQL.list, params);
    return {
      rows: rows.map((r) => ({
        created_at: new Date(r.created_at).toISOString(),
        ...personOf(dataKeys, r),
        status: r.status,
        invited_at: iso(r.invited_at),
        joined_at: iso(r.joined_at),
        source: r.source,
        medium: r.medium,
        campaign: r.campaign,
        referrer: r.referrer,
        page: r.page,
        terms_version: r.terms_version,
        confirmed_at: iso(r.confirmed_at),
      })),
      next: rows.length === limit ? Number(rows[rows.length - 1]?.id) : null,
    };
  };
  const sealing = async (): Promise<Sealing> => {
    const counts: Sealing = { plain: 0, sealed: {} };
    for (const r of await db.query<{ key_id: string | null; count: number }>(SQL.sealing)) {
      if (r.key_id === null) counts.plain = Number(r.count);
      else counts.sealed[r.key_id] = Number(r.count);
    }
    return counts;
  };
  const checkDataKey = async () => {
    const { sealed } = await sealing();
    const known = [dataKeys?.current.id, dataKeys?.previous?.id];
    for (const [id, count] of Object.entries(sealed)) {
      if (known.includes(id)) continue;
      throw new DataKeyError(
        dataKeys
          ? `DATA_KEY does not open the ${count} row(s) sealed under key ${id}: set the key they were sealed with (while rotating, the old one as DATA_KEY_PREVIOUS).`
          : `${count} row(s) are sealed under key ${id}, but DATA_KEY is not set: set it to the key they were sealed with.`,
      );
    }
  };
  /**
   * After a sign-up that added nothing while rows are sealed (the statement says so): without DATA_KEY, the reason is
   * those rows, not a duplicate, and a DataKeyError says which key is missing. The caller answers it as an outage,
   * so the visitor keeps their values and tries again.
   */
  const refusedInClear = async (sealedRows: boolean | undefined) => {
    if (!dataKeys && sealedRows === true) await checkDataKey();
  };
  let checked: Promise<void> | undefined;
  /**
   * The key check, made once per store, before the first write with a key (without one, rows are written plain,
   * which any key can live with); a database that did not answer is asked again next time.
   */
  const keyChecked = () => {
    if (!dataKeys) return Promise.resolve();
    checked ??= checkDataKey().catch((error: unknown) => {
      if (!(error instanceof DataKeyError)) checked = undefined;
      throw error;
    });
    return checked;
  };
  return {
    db,
    dataKeys,
    consent: createConsentStore(db, dataKeys),
    invites: createInviteStore(db, dataKeys),
    async add(entry, status = "confirmed") {
      await keyChecked();
      const params = [addressKeys(dataKeys, entry.email), ...rowParams(entry, status)];
      const [row] = await db.query<{ added: number; sealed_rows: boolean }>(SQL.insert, params);
      const added = Number(row?.added ?? 0) === 1;
      if (!added) await refusedInClear(row?.sealed_rows);
      return added;
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
      return (await db.query(SQL.erase, [addressKeys(dataKeys, email)])).length > 0;
    },
    sealing,
    checkDataKey,
    async sealNext(limit) {
      if (!dataKeys) throw new DataKeyError("DATA_KEY is not set: there is no key to seal with.");
      await keyChecked();
      const rows = await db.query<StoredPerson & { id: number | string }>(SQL.unsealed, [dataKeys.current.id, limit]);
      if (rows.length === 0) return { sealed: 0, read: 0 };
      const sealed = rows.map((r) => columnsOf(dataKeys, personOf(dataKeys, r)));
      const done = await db.query(SQL.seal, [
        dataKeys.current.id,
        rows.map((r) => Number(r.id)),
        sealed.map((c) => c.email),
        sealed.map((c) => c.sealed),
        rows.map((r) => r.key_id),
      ]);
      return { sealed: done.length, read: rows.length };
    },
    async hitAndAdd(key, window, allowance, entry, status = "confirmed") {
      await keyChecked();
      const params = [
        key,
        window.start.toISOString(),
        previousStart(window),
        allowance,
        window.previousWeight,
        addressKeys(dataKeys, entry.email),
        ...rowParams(entry, status),
      ];
      const [row] = await db.query<RateRow & { added: number; sealed_rows: boolean }>(SQL.hitAndInsert, params);
      const count = { ...rateCount(row), added: Number(row?.added ?? 0) === 1 };
      if (count.allowed && !count.added) await refusedInClear(row?.sealed_rows);
      return count;
    },
    async hit(key, window, allowance) {
      const [row] = await db.query<RateRow>(SQL.hit, rateParams(key, window, allowance));
      return rateCount(row);
    },
    async peek(key, window, allowance) {
      const [row] = await db.query<RateRow>(SQL.peek, rateParams(key, window, allowance));
      return rateCount(row);
    },
    async purgePending(hours, apply) {
      const [row] = await db.query<{ matched: number; purged: number }>(SQL.purgePending, [hours, apply]);
      return { matched: Number(row?.matched ?? 0), purged: Number(row?.purged ?? 0) };
    },
    async list(since, options = {}) {
      const all: ExportedEntry[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const { rows, next } = await page(after, 1000, since, options);
        all.push(...rows);
        after = next;
      }
      return all;
    },
    listPage: page,
    async perDay(days) {
      return (await db.query<{ day: string; count: number }>(SQL.perDay, [days])).map((r) => ({
        ...r,
        count: Number(r.count),
      }));
    },
    close: () => db.close(),
  };
}
