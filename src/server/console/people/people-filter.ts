/**
 * What the People page's address asks for, read strictly: the filters (status, where they came from, their updates
 * choice, the suppression list, the wave that invited them, their answers, a search by address), the order, and
 * where the page starts. Anything no link or form of the console writes (an unknown status, a page 0, a broken
 * cursor) is null, and answered 400: never a guess, never a whole-table read. `peopleParams` writes the same address
 * back, so every link (Older, Newer, Clear, a filter's chip) keeps what the operator chose.
 */
import { LIMITS } from "../../../lib/waitlist/rules";
import { ENTRY_STATUSES, type EntryStatus } from "../../entry";
import { ANSWER_PARAM, answersOf, type Segment } from "../../segments";
import { BREAKDOWN_FIELDS, type BreakdownField } from "../../store/types";

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
  /** Their answers to the team's choice questions (segments/): one value per question in the address. */
  answers: Segment;
}

export const NO_FILTER: PeopleFilter = {
  search: "",
  status: null,
  from: {},
  updates: null,
  suppressed: null,
  wave: null,
  answers: {},
};

/** Where a page starts: a page number, or the rows after (or before) a row in the list's own order. */
export type ListPosition =
  | { kind: "page"; page: number }
  | { kind: "after" | "before"; cursor: string; page: number | null };

/**
 * A cursor: the row's referrals, its created_at in microseconds since 1970 (exact, unlike a Date), its id, each
 * written as the list writes it (no leading zero). Its numbers must also fit their columns (isCursor).
 */
export const CURSOR = /^(0|[1-9]\d{0,9})\.(0|[1-9]\d{0,16})\.(0|[1-9]\d{0,18})$/;
/** The largest referrals (an integer column) and id (a bigint) a cursor may name: past them Postgres errs (22003). */
const MAX_REFERRALS = 2_147_483_647n;
const MAX_ID = 9_223_372_036_854_775_807n;

/** Whether `text` is a cursor the database can take: its shape, and referrals and id within their columns. */
export function isCursor(text: string): boolean {
  const [, referrals, , id] = CURSOR.exec(text) ?? [];
  return referrals !== undefined && id !== undefined && BigInt(referrals) <= MAX_REFERRALS && BigInt(id) <= MAX_ID;
}

/** Text no column can hold: Postgres refuses a NUL in any text (22021), so it is refused before a query. */
const unstorable = (value: string) => value.includes("\u0000");

/** Which part of an address no console link or form writes: each is answered 400 with its own words (REFUSED). */
export type PeopleRefusal = "position" | "search" | "filters";

/** What a refused address is told, on the console's own error page: which part is not valid, and what to do. */
export const REFUSED: Record<PeopleRefusal, { title: string; text: string }> = {
  position: {
    title: "That place in the list doesn't exist",
    text: `The link's position in the list is not valid: pages are numbered from 1 to ${MAX_PAGE.toLocaleString("en")}, and Older and Newer write the rest. Start again from the People page.`,
  },
  search: {
    title: "That search can't be run",
    text: "The search is not valid: it holds a character no address or source has (a NUL). Search again from the People page.",
  },
  filters: {
    title: "That list doesn't exist",
    text: "A filter in the link is not valid: use the filters on the People page, where each offers its own choices.",
  },
};

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
  if (!isCursor(cursor)) return null;
  return { kind: after !== null ? "after" : "before", cursor, page: number };
}

/** The page's whole query, or null when any part of it is something no console link or form writes. */
export function peopleQuery(params: URLSearchParams): PeopleQuery | null {
  const read = readPeopleQuery(params);
  return "refused" in read ? null : read;
}

/** The page's whole query, or which part of it no console link or form writes (the position first). */
export function readPeopleQuery(params: URLSearchParams): PeopleQuery | { refused: PeopleRefusal } {
  const position = listPosition(params);
  if (!position) return { refused: "position" };
  const search = params.get("q") ?? "";
  if (unstorable(search)) return { refused: "search" };
  const status = oneOf(ENTRY_STATUSES, params.get("status"));
  const updates = oneOf(UPDATES_CHOICES, params.get("updates"));
  const suppressed = oneOf(SUPPRESSED_CHOICES, params.get("suppressed"));
  const sort = oneOf(SORTS, params.get("sort"));
  const waveText = params.get("wave") ?? "";
  const wave = waveText === "" ? null : /^\d{1,15}$/.test(waveText) ? Number(waveText) : undefined;
  const refused = { refused: "filters" } as const;
  if (status === undefined || updates === undefined || suppressed === undefined) return refused;
  if (sort === undefined || wave === undefined) return refused;
  const from: SourceFilter = {};
  for (const field of BREAKDOWN_FIELDS) {
    const value = params.get(field);
    if (value === null || value === "") continue;
    if (value.length > 253 || unstorable(value)) return refused;
    from[field] = value.trim() === "" ? null : value;
  }
  const answers = answersOf(params);
  if (answers === null) return refused;
  return {
    filter: { search: search.trim().slice(0, LIMITS.email), status, from, updates, suppressed, wave, answers },
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
  for (const [id, [value]] of Object.entries(filter.answers))
    if (value !== undefined) params[ANSWER_PARAM + id] = value;
  if (sort !== "newest") params["sort"] = sort;
  return params;
}

/** Whether anything narrows the list (the order does not). */
export const isFiltered = (filter: PeopleFilter) => Object.keys(peopleParams(filter)).length > 0;
