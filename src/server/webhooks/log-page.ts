/**
 * The delivery log's pages (the console's webhook log): LOG_PAGE events a page, newest first, all or in one state,
 * read along (occurred_at, id) from the event a page continues from: a keyset cursor, never an OFFSET, since the
 * log holds every event of the last 30 days and a far page must cost what the first does (waitlist_webhook_recent_idx).
 */
import type { Db } from "../db/types";
import { EVENT_COLUMNS, type EventColumns, type EventRow, eventOf } from "./log-store";

export const LOG_PAGE = 50;

/**
 * A cursor: the event's occurred_at in microseconds since 1970 (exact, unlike a Date) and its id, as the page
 * writes them.
 */
export const LOG_CURSOR = /^(0|[1-9]\d{0,16})\.(msg_[0-9a-f]{32})$/;

/** Where a page starts: the newest, or the events older (or newer) than a cursor's. */
export type LogPosition = { kind: "newest" } | { kind: "older" | "newer"; cursor: string };

export interface LoggedEvent extends EventRow {
  cursor: string;
}

export interface LogPage {
  events: LoggedEvent[];
  /** Whether older events follow the last shown, and newer ones precede the first. */
  older: boolean;
  newer: boolean;
}

const AT = "timestamptz 'epoch' + $3::bigint * interval '1 microsecond'";
const READ = (where: string, order: "DESC" | "ASC") => `SELECT ${EVENT_COLUMNS},
    (extract(epoch FROM occurred_at) * 1000000)::bigint::text AS at_us
  FROM waitlist_webhook_event WHERE ($1::text IS NULL OR state = $1::text) AND ($3::bigint IS NULL OR ${where})
  ORDER BY occurred_at ${order}, id ${order} LIMIT $2`;

export const LOG_PAGE_SQL = {
  /** `$2` events of state `$1` (any when null), newest first, older than the cursor's ($3 microseconds, $4 id). */
  older: READ(`occurred_at <= ${AT} AND (occurred_at, id) < (${AT}, $4::text)`, "DESC"),
  /** The same, oldest first, newer than the cursor's (for "Newer", shown reversed). */
  newer: READ(`occurred_at >= ${AT} AND (occurred_at, id) > (${AT}, $4::text)`, "ASC"),
} as const;

/** Reads the page of the log at `position`, in `state` (all when null). */
export async function readLogPage(
  db: Db,
  state: EventRow["state"] | null,
  position: LogPosition,
  limit = LOG_PAGE,
): Promise<LogPage> {
  const read = async (sql: string, cursor: string | null) => {
    const [, us, id] = cursor === null ? [] : (LOG_CURSOR.exec(cursor) ?? []);
    const rows = await db.query<EventColumns & { at_us: string }>(sql, [state, limit + 1, us ?? null, id ?? null]);
    return rows.map((r): LoggedEvent => ({ ...eventOf(r), cursor: `${r.at_us}.${r.id}` }));
  };
  if (position.kind === "newer") {
    const rows = await read(LOG_PAGE_SQL.newer, position.cursor);
    // Near the top, the page is the newest one: a whole page, not the few left above the cursor.
    if (rows.length > limit) return { events: rows.slice(0, limit).reverse(), older: true, newer: true };
  } else if (position.kind === "older") {
    const rows = await read(LOG_PAGE_SQL.older, position.cursor);
    return { events: rows.slice(0, limit), older: rows.length > limit, newer: true };
  }
  const rows = await read(LOG_PAGE_SQL.older, null);
  return { events: rows.slice(0, limit), older: rows.length > limit, newer: false };
}
