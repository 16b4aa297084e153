/**
 * The console's list of sign-ups, newest first, as fast at a million rows as at ten: every page is read along an
 * index and stops after one page of rows. "Older" and "Newer" carry the row they continue from (a keyset cursor),
 * so going back through the list never counts what it skips; a page asked for by number skips along the index
 * only (MAX_PAGE bounds how far); a search reads the address indexes (a complete address whole, by its keys;
 * anything else as a part, by trigrams or, where the database lacks pg_trgm, by its start, and whole) and counts
 * its matches up to MATCH_CAP.
 */
import { EMAIL_PATTERN } from "../../lib/waitlist/rules";
import { addressKeys, type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import type { EntryStatus } from "../entry";

export const PER_PAGE = 25;
/** Page numbers reach 250,000 sign-ups back (an index skip of a few ms per 10,000); further on, "Older" goes. */
export const MAX_PAGE = 10_000;
/** A search counts its matches this far, then says "more than": counting every match of "gmail" reads them all. */
export const MATCH_CAP = 1000;
/** A part shorter than this has no trigram to look up, so it would read the whole table: it finds whole addresses. */
export const MIN_PART = 3;

/** How a part of an address is found: anywhere in it (pg_trgm's index), or at its start (a plain btree). */
export type PartSearch = "anywhere" | "start";

/** Where a page starts: the newest rows, a row to go on from (older or newer than it), or a page number. */
export type ListPosition =
  | { kind: "page"; page: number }
  | { kind: "older" | "newer"; cursor: string; page: number | null };

/** An entry as the console lists it, with the cursor that continues the list from it. */
export interface ListedEntry {
  id: number;
  created_at: string;
  email: string;
  name: string | null;
  status: EntryStatus;
  source: string | null;
  /** Their share code, and how many of their referrals count. */
  referralCode: string;
  referrals: number;
  cursor: string;
}

export interface ListedPage {
  rows: ListedEntry[];
  /** Whether there are rows older than the last one shown, and newer than the first. */
  older: boolean;
  newer: boolean;
}

/** A cursor: the row's created_at in microseconds since 1970 (exact, unlike a JavaScript Date), a dot, its id. */
const CURSOR = /^(\d{1,17})\.(\d{1,19})$/;
export const isCursor = (value: string) => CURSOR.test(value);

/**
 * $2: whether a search filters at all; $3: the LIKE pattern of a part (NULL: whole addresses only); $4: the
 * address's keys (plain and hashed under DATA_KEY), found by waitlist_email_lower_key. Each statement is planned
 * with its values, so an unused branch folds away before the planner picks an index.
 */
const MATCH = `($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))`;
const COLUMNS = `id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, ${PERSON_COLUMNS},
  status, source, referral_code, referrals`;
/** The cursor's row position ($5 microseconds, $6 id), compared with (created_at, id) along waitlist_created_idx. */
const AT = `(timestamptz 'epoch' + $5::bigint * interval '1 microsecond', $6::bigint)`;

export const LIST_SQL = {
  /** $1 rows from the newest, older than the cursor when given, after skipping $7 (a page number's rows). */
  older: `SELECT ${COLUMNS} FROM waitlist
    WHERE ${MATCH} AND ($5::bigint IS NULL OR (created_at, id) < ${AT})
    ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $7`,
  /** $1 rows newer than the cursor, nearest first (shown in the other order). */
  newer: `SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND (created_at, id) > ${AT}
    ORDER BY created_at, id LIMIT $1`,
  /** How many match a search, counted up to $1. */
  matching: `SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ${MATCH} LIMIT $1) m`,
  /** Which index migration 0008 could build for parts of addresses: gin (trigrams) or btree (prefixes). */
  partIndex: `SELECT a.amname AS method FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE c.oid = to_regclass('waitlist_email_part_idx')`,
} as const;

/** A part as a LIKE pattern: its own %, _ and \ match themselves. */
const likePattern = (part: string, where: PartSearch) => {
  const escaped = part.replace(/[\\%_]/g, (c) => `\\${c}`);
  return where === "anywhere" ? `%${escaped}%` : `${escaped}%`;
};

/**
 * Where the console's query string asks the list to start (`page`, `before` or `after`, as its links write them),
 * or null when it asks for something no link makes: answered 400, never a whole-table read.
 */
export function listPosition(params: URLSearchParams): ListPosition | null {
  const [page, before, after] = [params.get("page"), params.get("before"), params.get("after")];
  const number = page === null ? null : /^\d{1,5}$/.test(page) ? Number(page) : Number.NaN;
  if (number !== null && !(number >= 1 && number <= MAX_PAGE)) return null;
  if (before !== null && after !== null) return null;
  const cursor = before ?? after;
  if (cursor === null) return { kind: "page", page: number ?? 1 };
  if (!isCursor(cursor)) return null;
  return { kind: before !== null ? "older" : "newer", cursor, page: number };
}

type Row = StoredPerson & {
  at_us: string;
  id: string | number;
  created_at: Date | string;
  status: EntryStatus;
  source: string | null;
  referral_code: string;
  referrals: number;
};

export function createConsoleList(db: Db, dataKeys: DataKeys | null) {
  let method: Promise<PartSearch> | undefined;
  const partSearch = () => {
    method ??= db
      .query<{ method: string }>(LIST_SQL.partIndex)
      .then(([row]) => (row?.method === "gin" ? "anywhere" : "start"));
    method.catch(() => {
      method = undefined;
    });
    return method;
  };
  /** $2, $3, $4 of every statement for a search (empty: no search). */
  const matchParams = async (search: string) => {
    if (search === "") return [false, null, []];
    // A complete address is looked up whole, by its unique index only: as a part, its common trigrams ("com",
    // "exa") would read thousands of index pages at a million rows (200 ms, measured) to find what the whole finds.
    const part =
      search.length >= MIN_PART && !EMAIL_PATTERN.test(search)
        ? likePattern(search.toLowerCase(), await partSearch())
        : null;
    return [true, part, addressKeys(dataKeys, search)];
  };
  const entry = (r: Row): ListedEntry => {
    const { email, name } = personOf(dataKeys, r);
    const created_at = new Date(r.created_at).toISOString();
    return {
      id: Number(r.id),
      created_at,
      email,
      name,
      status: r.status,
      source: r.source,
      referralCode: r.referral_code,
      referrals: Number(r.referrals),
      cursor: `${r.at_us}.${r.id}`,
    };
  };

  return {
    partSearch,
    /** One page of `limit` rows at `position`, with whether the list goes on each way. */
    async page(search: string, position: ListPosition, limit = PER_PAGE): Promise<ListedPage> {
      const match = await matchParams(search);
      if (position.kind === "page") {
        const skip = (position.page - 1) * limit;
        const rows = await db.query<Row>(LIST_SQL.older, [limit + 1, ...match, null, null, skip]);
        return { rows: rows.slice(0, limit).map(entry), older: rows.length > limit, newer: position.page > 1 };
      }
      const [, us, id] = CURSOR.exec(position.cursor) ?? [];
      if (position.kind === "older") {
        const rows = await db.query<Row>(LIST_SQL.older, [limit + 1, ...match, us, id, 0]);
        return { rows: rows.slice(0, limit).map(entry), older: rows.length > limit, newer: true };
      }
      const rows = await db.query<Row>(LIST_SQL.newer, [limit + 1, ...match, us, id]);
      return { rows: rows.slice(0, limit).reverse().map(entry), older: true, newer: rows.length > limit };
    },
    /** How many rows match `search`, up to MATCH_CAP (`capped`: more than that). */
    async matching(search: string): Promise<{ count: number; capped: boolean }> {
      const [row] = await db.query<{ count: number }>(LIST_SQL.matching, [
        MATCH_CAP + 1,
        ...(await matchParams(search)),
      ]);
      const count = Number(row?.count ?? 0);
      return { count: Math.min(count, MATCH_CAP), capped: count > MATCH_CAP };
    },
  };
}

export type ConsoleList = ReturnType<typeof createConsoleList>;
