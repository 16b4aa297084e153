/**
 * What the People page's address asks for, read strictly: the filters (status, where they came from, their updates
 * choice, the suppression list, the wave that invited them, a search by address), the order, and where the page
 * starts. Anything no link or form of the console writes (an unknown status, a page 0, a broken cursor) is null, and
 * answered 400: never a guess, never a whole-table read. `peopleParams` writes the same address back, so every link
 * (Older, Newer, Clear, a filter's chip) keeps what the operator chose.
 */
import { LIMITS } from "../../lib/waitlist/rules";
import { ENTRY_STATUSES, type EntryStatus } from "../entry";
import { BREAKDOWN_FIELDS, type BreakdownField } from "../store/types";

export const SORTS = ["newest", "oldest", "referrals"] as const;
export type PeopleSort = (typeof SORTS)[number];
export const UPDATES_CHOICES = ["yes", "no", "never"] as const;
export type UpdatesChoice = (typeof UPDATES_CHOICES)[number];
export const SUPPRESSED_CHOICES = ["yes", "no"] as const;
export type SuppressedChoice = (typeof SUPPRESSED_CHOICES)[number];

/** Page numbers reach 250,000 rows in (an index skip of a few ms per 10,000); further on, "Older" goes. */
export const MAX_PAGE = 10_000;

/**
 * "None recorded" in the address: a blank value. No sign-up can have one (attribution.ts stores trimmed, non-empty
 * text or nothing), so it never stands for a real source, and an empty value still means "any".
 */
export const NONE = " ";

/** A source field's filter: a value, null (none recorded), or absent (any). */
export type SourceFilter = Partial<Record<BreakdownField, string | null>>;

export interface PeopleFilter {
  /** A whole address or a part of one ("" : no search). */
  search: string;
  status: EntryStatus | null;
  from: SourceFilter;
  updates: UpdatesChoice | null;
  suppressed: SuppressedChoice | null;
  /** The wave whose invited people are listed (waitlist.invited_wave_id). */
  wave: number | null;
}

export const NO_FILTER: PeopleFilter = {
  search: "",
  status: null,
  from: {},
  updates: null,
  suppressed: null,
  wave: null,
};

/** Where a page starts: a page number, or the rows after (or before) a row in the list's own order. */
export type ListPosition =
  | { kind: "page"; page: number }
  | { kind: "after" | "before"; cursor: string; page: number | null };

/** A cursor: the row's referrals, its created_at in microseconds since 1970 (exact, unlike a Date), its id. */
export const CURSOR = /^(\d{1,10})\.(\d{1,17})\.(\d{1,19})$/;

export interface PeopleQuery {
  filter: PeopleFilter;
  sort: PeopleSort;
  position: ListPosition;
  /** Every row of the page checked ("Select all on this page": the console has no script). */
  selectAll: boolean;
}

const oneOf = <T extends string>(values: readonly T[], given: string | null): T | null | undefined =>
  given === null || given === "" ? null : values.includes(given as T) ? (given as T) : undefined;

/** Where the address asks the list to start (`page`, `after` or `before`), or null when no link makes it. */
export function listPosition(params: URLSearchParams): ListPosition | null {
  const [page, after, before] = [params.get("page"), params.get("after"), params.get("before")];
  const number = page === null ? null : /^\d{1,5}$/.test(page) ? Number(page) : Number.NaN;
  if (number !== null && !(number >= 1 && number <= MAX_PAGE)) return null;
  if (before !== null && after !== null) return null;
  const cursor = after ?? before;
  if (cursor === null) return { kind: "page", page: number ?? 1 };
  if (!CURSOR.test(cursor)) return null;
  return { kind: after !== null ? "after" : "before", cursor, page: number };
}

/** The page's whole query, or null when any part of it is something no console link or form writes. */
export function peopleQuery(params: URLSearchParams): PeopleQuery | null {
  const position = listPosition(params);
  const status = oneOf(ENTRY_STATUSES, params.get("status"));
  const updates = oneOf(UPDATES_CHOICES, params.get("updates"));
  const suppressed = oneOf(SUPPRESSED_CHOICES, params.get("suppressed"));
  const sort = oneOf(SORTS, params.get("sort"));
  const waveText = params.get("wave") ?? "";
  const wave = waveText === "" ? null : /^\d{1,15}$/.test(waveText) ? Number(waveText) : undefined;
  if (!position || status === undefined || updates === undefined || suppressed === undefined) return null;
  if (sort === undefined || wave === undefined) return null;
  const from: SourceFilter = {};
  for (const field of BREAKDOWN_FIELDS) {
    const value = params.get(field);
    if (value === null || value === "") continue;
    if (value.length > 253) return null;
    from[field] = value.trim() === "" ? null : value;
  }
  return {
    filter: { search: (params.get("q") ?? "").trim().slice(0, LIMITS.email), status, from, updates, suppressed, wave },
    sort: sort ?? "newest",
    position,
    selectAll: params.get("select") === "all",
  };
}

/** The address of `filter` and `sort` (defaults left out), to which a link adds its position. */
export function peopleParams(filter: PeopleFilter, sort: PeopleSort = "newest"): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.search) params["q"] = filter.search;
  if (filter.status) params["status"] = filter.status;
  for (const field of BREAKDOWN_FIELDS) {
    const value = filter.from[field];
    if (value !== undefined) params[field] = value ?? NONE;
  }
  if (filter.updates) params["updates"] = filter.updates;
  if (filter.suppressed) params["suppressed"] = filter.suppressed;
  if (filter.wave !== null) params["wave"] = String(filter.wave);
  if (sort !== "newest") params["sort"] = sort;
  return params;
}

/** Whether anything narrows the list (the order does not). */
export const isFiltered = (filter: PeopleFilter) => Object.keys(peopleParams(filter)).length > 0;
