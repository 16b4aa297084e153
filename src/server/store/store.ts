/**
 * The waitlist's SQL and the store built on it: every statement the sign-up path and the operators run is here,
 * side by side, so one read shows what touches the table (links and tokens: consent.ts; invitations:
 * invites.ts).
 */
import { ATTRIBUTION_FIELDS, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import {
  addressKeys,
  columnsOf,
  type DataKeys,
  type PersonalData,
  personOf,
  STORED_PERSON_FIELDS,
  type StoredPerson,
} from "../data-key";
import type { Db } from "../db/types";
import { ENTRY_STATUSES, type EntryStatus, type WaitlistEntry } from "../entry";
import { createConsentStore } from "./consent";
import { createInviteStore } from "./invites";

import { createSealing } from "./sealing";
import { SQL } from "./sql";
import {
  BREAKDOWN_FIELDS,
  type BreakdownField,
  type ExportedEntry,
  type ListOptions,
  type ListPage,
  type RateCount,
  type RateWindow,
  type StatusCounts,
  type Store,
} from "./types";

export { SQL } from "./sql";
export * from "./types";

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

/** The entry's attribution as the five statement parameters, in ATTRIBUTION_FIELDS order. */
const sources = (entry: WaitlistEntry) =>
  ATTRIBUTION_FIELDS.map((field) => (entry.attribution ?? NO_ATTRIBUTION)[field]);

type RateRow = { attempts: number; previous: number; allowed: boolean; retry_after: number };

function rateCount(row: RateRow | undefined): RateCount {
  return {
    allowed: row?.allowed === true,
    attempts: Number(row?.attempts ?? 1),
    previous: Number(row?.previous ?? 0),
    retryAfter: Number(row?.retry_after ?? 1),
  };
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
  const { sealing, checkDataKey, keyChecked, refusedInClear, sealNext } = createSealing(db, dataKeys);
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
    sealNext,
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
