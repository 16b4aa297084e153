/**
 * The People page's list (people.tsx), as fast at a million rows as at ten, whatever it is filtered by and however
 * it is sorted: every page is read along an index in the list's order and stops after one page of rows. Each filter
 * has an index of its own in sign-up order (migration 0019), so a rare value reads only its rows; a sort by
 * referrals reads the few people with referrals first (their own index), then everyone else in sign-up order along
 * the same indexes. "Older" and "Newer" carry the row they continue from (a keyset cursor), so going through the
 * list never counts what it skips; a page asked for by number skips along the index only (MAX_PAGE bounds how far);
 * a search reads the address indexes (a complete address whole, by its keys; anything else as a part, by trigrams
 * or, where the database lacks pg_trgm, by its start). Matches are counted up to MATCH_CAP.
 */
import { EMAIL_PATTERN } from "../../../lib/waitlist/rules";
import { addressKeys, type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../../data-key";
import type { Db } from "../../db/types";
import type { EntryStatus } from "../../entry";
import { containments, segmentMatch } from "../../segments";
import { BREAKDOWN_FIELDS } from "../../store/types";
import { CURSOR, type ListPosition, NO_FILTER, type PeopleFilter, type PeopleSort } from "./people-filter";

export { type ListPosition, listPosition, MAX_PAGE } from "./people-filter";

export const PER_PAGE = 25;
/** A search or a filter counts its matches this far, then says "more than": counting all of "gmail" reads them all. */
export const MATCH_CAP = 1000;
/** A part shorter than this has no trigram to look up, so it would read the whole table: it finds whole addresses. */
export const MIN_PART = 3;

/** How a part of an address is found: anywhere in it (pg_trgm's index), or at its start (a plain btree). */
export type PartSearch = "anywhere" | "start";

/** An entry as the list shows it, with the cursor that continues the list from it. */
export interface ListedEntry {
  id: number;
  created_at: string;
  email: string;
  name: string | null;
  status: EntryStatus;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  /** How many of their referrals count. */
  referrals: number;
  cursor: string;
}

export interface ListedPage {
  rows: ListedEntry[];
  /** Whether the list goes on after the last row shown, and before the first (in the list's order). */
  after: boolean;
  before: boolean;
}

/**
 * $1 the rows wanted. $2–$4 a search: whether there is one, the LIKE pattern of a part (NULL: whole addresses only),
 * the address's keys (plain and hashed under DATA_KEY). $5 a status. $6–$13 source, medium, campaign and referring
 * site, two each: 0 any, 1 the value that follows, 2 none recorded. $14 the updates choice (yes, no, never asked),
 * $15 on the suppression list or not (yes, no), $16 the wave that invited them, $17 their answers (a segment,
 * segments/sql.ts). NULL: any. Each statement is planned
 * with its values (an unnamed statement), so every unused condition folds to true before the planner picks an
 * index, and a used one is left as a plain comparison that index can answer.
 */
const pick = (column: string, n: number) =>
  `($${n}::int = 0 OR ($${n}::int = 1 AND ${column} = $${n + 1}::text) OR ($${n}::int = 2 AND ${column} IS NULL))`;
export const MATCH = `($2::boolean IS NOT TRUE OR (key_id IS NULL AND lower(email) LIKE $3::text) OR lower(email) = ANY($4::text[]))
    AND ($5::text IS NULL OR status = $5::text)
    AND ${BREAKDOWN_FIELDS.map((field, i) => pick(field, 6 + 2 * i)).join(" AND ")}
    AND ($14::text IS NULL OR ($14::text = 'yes' AND updates_consent) OR ($14::text = 'no' AND NOT updates_consent)
      OR ($14::text = 'never' AND updates_consent IS NULL))
    AND ($15::text IS NULL OR ($15::text = 'yes' AND mail_suppressed) OR ($15::text = 'no' AND NOT mail_suppressed))
    AND ($16::bigint IS NULL OR invited_wave_id = $16::bigint)
    AND ${segmentMatch(17)}`;
const COLUMNS = `id, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_us, created_at, ${PERSON_COLUMNS},
  status, source, medium, campaign, referrer, referrals`;
/** $18 rows to skip (a page number's), then the cursor's row: $19 microseconds, $20 id, $21 its referrals. */
const AT_TIME = "timestamptz 'epoch' + $19::bigint * interval '1 microsecond'";
const AT = `(${AT_TIME}, $20::bigint)`;
const AT_REFERRALS = `($21::int, ${AT_TIME}, $20::bigint)`;
const DESC = "ORDER BY created_at DESC, id DESC";
const ASC = "ORDER BY created_at, id";

export const LIST_SQL = {
  /** In sign-up order, newest first, from the cursor's row when there is one (waitlist_created_idx, or a filter's). */
  newestFirst: `SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND ($19::bigint IS NULL OR (created_at, id) < ${AT})
    ${DESC} LIMIT $1 OFFSET $18`,
  oldestFirst: `SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND ($19::bigint IS NULL OR (created_at, id) > ${AT})
    ${ASC} LIMIT $1 OFFSET $18`,
  /**
   * Most referrals first, then the newest: the people with referrals (waitlist_referrals_idx, a few), then those
   * without in sign-up order (as newestFirst reads them). A cursor among those without skips the first part.
   */
  mostReferrals: `SELECT * FROM (
      (SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND referrals > 0
        AND ($21::int IS NULL OR (referrals, created_at, id) < ${AT_REFERRALS})
        ORDER BY referrals DESC, created_at DESC, id DESC LIMIT $1::bigint + $18::bigint)
      UNION ALL
      (SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND referrals = 0
        AND ($21::int IS NULL OR $21::int > 0 OR (created_at, id) < ${AT})
        ${DESC} LIMIT $1::bigint + $18::bigint)
    ) p ORDER BY referrals DESC, created_at DESC, id DESC LIMIT $1 OFFSET $18`,
  /** The same order backwards from the cursor's row (for "Newer"): those without referrals, then those with. */
  fewestReferrals: `SELECT * FROM (
      (SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND referrals = 0 AND $21::int = 0 AND (created_at, id) > ${AT}
        ${ASC} LIMIT $1::bigint + $18::bigint)
      UNION ALL
      (SELECT ${COLUMNS} FROM waitlist WHERE ${MATCH} AND referrals > 0
        AND (referrals, created_at, id) > ${AT_REFERRALS}
        ORDER BY referrals, created_at, id LIMIT $1::bigint + $18::bigint)
    ) p ORDER BY referrals, created_at, id LIMIT $1 OFFSET $18`,
  /** How many match, counted up to $1. */
  matching: `SELECT count(*)::int AS count FROM (SELECT 1 FROM waitlist WHERE ${MATCH} LIMIT $1) m`,
  /** Which index migration 0008 could build for parts of addresses: gin (trigrams) or btree (prefixes). */
  partIndex: `SELECT a.amname AS method FROM pg_class c JOIN pg_am a ON a.oid = c.relam
    WHERE c.oid = to_regclass('waitlist_email_part_idx')`,
} as const;

/** Each order's statement forwards (the list's order) and backwards (read for "before", shown reversed). */
const STATEMENTS: Record<PeopleSort, [forwards: string, backwards: string]> = {
  newest: [LIST_SQL.newestFirst, LIST_SQL.oldestFirst],
  oldest: [LIST_SQL.oldestFirst, LIST_SQL.newestFirst],
  referrals: [LIST_SQL.mostReferrals, LIST_SQL.fewestReferrals],
};

/** A part as a LIKE pattern: its own %, _ and \ match themselves. */
const likePattern = (part: string, where: PartSearch) => {
  const escaped = part.replace(/[\\%_]/g, (c) => `\\${c}`);
  return where === "anywhere" ? `%${escaped}%` : `${escaped}%`;
};

/** A row as the database sends it: the entry's own columns as listed, its id and time as the driver gives them. */
type Row = StoredPerson &
  Pick<ListedEntry, "status" | "source" | "medium" | "campaign" | "referrer" | "referrals"> & {
    at_us: string;
    id: string | number;
    created_at: Date | string;
  };

/** A filter, or (as before the People page) a search alone. */
const filterOf = (given: PeopleFilter | string): PeopleFilter =>
  typeof given === "string" ? { ...NO_FILTER, search: given } : given;

/** A stored row as the People list shows it, with its cursor (referrals, sign-up time, id). */
function listedEntry(dataKeys: DataKeys | null, r: Row): ListedEntry {
  const { email, name } = personOf(dataKeys, r);
  return {
    id: Number(r.id),
    created_at: new Date(r.created_at).toISOString(),
    email,
    name,
    status: r.status,
    source: r.source,
    medium: r.medium,
    campaign: r.campaign,
    referrer: r.referrer,
    referrals: Number(r.referrals),
    cursor: `${r.referrals}.${r.at_us}.${r.id}`,
  };
}

/** $2–$17 of every statement for `filter`: the search, status, each source field, updates, suppression, wave, answers. */
async function filterParams(filter: PeopleFilter, dataKeys: DataKeys | null, partSearch: () => Promise<PartSearch>) {
  const { search } = filter;
  // A complete address is looked up whole, by its unique index only: as a part, its common trigrams ("com",
  // "exa") would read thousands of index pages at a million rows (200 ms, measured) to find what the whole finds.
  const part =
    search.length >= MIN_PART && !EMAIL_PATTERN.test(search)
      ? likePattern(search.toLowerCase(), await partSearch())
      : null;
  const searching = search === "" ? [false, null, []] : [true, part, addressKeys(dataKeys, search)];
  const from = BREAKDOWN_FIELDS.flatMap((field) => {
    const value = filter.from[field];
    return value === undefined ? [0, null] : value === null ? [2, null] : [1, value];
  });
  const segment = containments(filter.answers);
  return [...searching, filter.status, ...from, filter.updates, filter.suppressed, filter.wave, segment];
}

/** One page of `limit` rows at `position`, in `sort`'s order, with whether the list goes on each way. */
async function readPage(
  db: Db,
  dataKeys: DataKeys | null,
  match: unknown[],
  position: ListPosition,
  sort: PeopleSort,
  limit: number,
): Promise<ListedPage> {
  const [forwards, backwards] = STATEMENTS[sort];
  const entry = (r: Row) => listedEntry(dataKeys, r);
  const read = async (sql: string, skip: number, at: string | null) => {
    const [, r, us, id] = (at && CURSOR.exec(at)) || [];
    const cursor = sort === "referrals" ? [us ?? null, id ?? null, r ?? null] : [us ?? null, id ?? null];
    return db.query<Row>(sql, [limit + 1, ...match, skip, ...cursor]);
  };
  if (position.kind === "page") {
    const rows = await read(forwards, (position.page - 1) * limit, null);
    return { rows: rows.slice(0, limit).map(entry), after: rows.length > limit, before: position.page > 1 };
  }
  if (position.kind === "after") {
    const rows = await read(forwards, 0, position.cursor);
    return { rows: rows.slice(0, limit).map(entry), after: rows.length > limit, before: true };
  }
  const rows = await read(backwards, 0, position.cursor);
  return { rows: rows.slice(0, limit).reverse().map(entry), after: true, before: rows.length > limit };
}

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
  const matchParams = (filter: PeopleFilter) => filterParams(filter, dataKeys, partSearch);
  return {
    partSearch,
    matchParams,
    /** One page of `limit` rows at `position`, in `sort`'s order, with whether the list goes on each way. */
    async page(given: PeopleFilter | string, position: ListPosition, sort: PeopleSort = "newest", limit = PER_PAGE) {
      return readPage(db, dataKeys, await matchParams(filterOf(given)), position, sort, limit);
    },
    /** How many rows match, up to MATCH_CAP (`capped`: more than that). */
    async matching(given: PeopleFilter | string): Promise<{ count: number; capped: boolean }> {
      const params = await matchParams(filterOf(given));
      const [row] = await db.query<{ count: number }>(LIST_SQL.matching, [MATCH_CAP + 1, ...params]);
      const count = Number(row?.count ?? 0);
      return { count: Math.min(count, MATCH_CAP), capped: count > MATCH_CAP };
    },
  };
}

export type ConsoleList = ReturnType<typeof createConsoleList>;
