/**
 * A download of the list in parts Netlify can serve: a function may stream at most 20 MB per response and run 60 s,
 * so a list of any length goes out as numbered parts, each a whole file (header included) of the rows whose ids
 * lie in one range. The ranges are fixed before the first part is read: the list's last id at that moment is the
 * ceiling, and each part ends where the rows after the previous one reach the part's byte budget. A sign-up that
 * arrives meanwhile has a higher id than the ceiling, so it is in no part and moves no row between parts; a
 * removal only makes its part shorter. The console's page of parts and the HTTP export's cursor both cut here.
 *
 * Why a part stays under 20 MB: each row is charged, before it is read, an upper bound of the bytes it can become.
 * A stored character can grow by one byte at most in any format, and only a few can grow at all: a quote (doubled
 * in CSV, escaped in JSON), a backslash, tab, CR or LF (escaped in JSON; a tab or CR can take the CSV formula
 * guard's `'`), and `=`, `+`, `-`, `@` (the guard's `'`). So a row's text costs its bytes plus one per such
 * character, plus each format's fixed cost of a row (ROW_COST: its dates, status, quotes around every cell,
 * separators, JSON's keys); a sealed row's text is inside its blob, which is longer than the text it seals, so
 * twice the blob's length covers it. Control characters, which `visibleControls` would make six bytes long, are
 * refused at sign-up (rules.ts UNSTORABLE), so no stored row has any.
 *
 * The arithmetic at the limits (rules.ts LIMITS, attribution.ts ATTRIBUTION_LIMITS): a longest row holds 3,324
 * characters of its own (name 100, email 255, organization 200, why 1,000, connect 1,000, source, medium and
 * campaign 100 each, referrer 253, page 200, terms_version 16) and the combined message (the three answers again:
 * 2,232 with their prefixes). A character is charged 4 bytes at most (an emoji, which does not grow; a character
 * that grows is ASCII, 2), and the address, referring host and version are ASCII (2 at most): 21,068 bytes for
 * its text, 21,580 with JSON's fixed cost. A part of such rows holds 741 of them: 15,990,780 bytes at most. Typical
 * rows (about 290 bytes of CSV) are charged about 400, so a part holds about 38,000 of them, about 11 MB.
 */

import { withTimeout } from "../http/timeout";
import type { Store } from "../store/types";
import type { ExportFormat } from "./rows";

/**
 * The most a part may be charged: 16 MB, 4 MB under Netlify's 20 MB (whether it means 10^6 or 2^20 bytes), which a
 * header line and JSON's brackets never use up. It also keeps a part within 60 s for a slow reader: 16 MB in 60 s
 * is 2.2 Mbit/s, and gzip (download.ts), which shrinks this text about fourfold, brings that near 0.6 Mbit/s.
 */
export const PART_BYTES = 16_000_000;
/**
 * The most rows a part holds, whatever their size: the time it takes the function. 40,000 rows are 200 of the
 * export's batches (export.ts EXPORT_BATCH), 200 round trips to the database: about 2 s over PostgreSQL's TCP on
 * this machine, under 20 s even at 100 ms a round trip (Neon's HTTP API from far away), so within 60 s.
 */
export const PART_ROWS = 40_000;

/** How big a part may be: tests cut small parts of a short list. */
export interface PartSize {
  bytes: number;
  rows: number;
}
export const PART_SIZE: PartSize = { bytes: PART_BYTES, rows: PART_ROWS };

/**
 * Each format's cost of a row beyond its text, in bytes. CSV: 17 cells, each possibly quoted (34), 16 commas, CRLF,
 * four timestamps of 24 and a status of at most 9: 157. Mail tools' CSV: two quoted cells, a comma, CRLF: 7. JSON:
 * 17 lines of 4 spaces, a quoted key (130 characters in all), `": "`, a value's quotes or `null` (4) and `,\n`,
 * the braces, the timestamps and status: 482. Rounded up.
 */
export const ROW_COST: Record<ExportFormat, number> = { csv: 192, "mail-csv": 16, json: 512 };

/**
 * The characters that may take one more byte in an export (see above), as SQL that removes them from `text`: one
 * replace() each, since translate() costs ten times as much (1 s for 40,000 rows against 0.1 s, PostgreSQL 15).
 */
const GROWING = ['"', "\\", "\t", "\r", "\n", "=", "+", "-", "@"];
const withoutGrowing = (text: string) =>
  GROWING.reduce((sql, char) => `replace(${sql}, chr(${char.charCodeAt(0)}), '')`, text);

export const SQL = {
  /** The list's last id now (0 when empty): the ceiling of a download. */
  ceiling: "SELECT coalesce(max(id), 0)::bigint AS through FROM waitlist",
  /**
   * The part after id $1, up to ceiling $2: at most $3 rows, charged $4 each and their text's bound, while the
   * total stays within $5. Always at least one row, if any is left. Reads by the primary key, at most $3 rows:
   * never the table.
   */
  partEnd: `WITH part AS (
      SELECT id, sum($4::int + 2 * octet_length(coalesce(sealed, '')) + 2 * octet_length(t)
        - octet_length(${withoutGrowing("t")})) OVER (ORDER BY id) AS charged
      FROM (
        SELECT id, sealed, concat(name, email, message, organization, why, connect, source, medium, campaign,
          referrer, page, terms_version) AS t
        FROM waitlist WHERE id > $1::bigint AND id <= $2::bigint ORDER BY id LIMIT $3::int
      ) AS rows
    )
    SELECT max(id) AS last, count(*)::int AS rows FROM part
    WHERE charged <= $5::bigint OR id = (SELECT min(id) FROM part)`,
} as const;

/** A part: the rows with from < id ≤ to (how many there were when it was cut). */
export interface PartRange {
  from: number;
  to: number;
  rows: number;
}

/** The ceiling of a download begun now: the list's last id. */
export async function exportCeiling(store: Store, timeoutMs: number): Promise<number> {
  const [row] = await withTimeout(store.db.query<{ through: unknown }>(SQL.ceiling), timeoutMs);
  return Number(row?.through ?? 0);
}

/** The part that starts after id `after`, under `through`; null when no row is left. */
export async function nextPart(
  store: Store,
  format: ExportFormat,
  after: number,
  through: number,
  timeoutMs: number,
  size: PartSize = PART_SIZE,
): Promise<PartRange | null> {
  const params = [after, through, size.rows, ROW_COST[format], size.bytes];
  const [row] = await withTimeout(store.db.query<{ last: unknown; rows: number }>(SQL.partEnd, params), timeoutMs);
  if (row?.last === null || row?.last === undefined) return null;
  return { from: after, to: Number(row.last), rows: Number(row.rows) };
}

/** Every part of the list as it is now, in order: what the console's page of parts links to. */
export async function planParts(
  store: Store,
  format: ExportFormat,
  timeoutMs: number,
  size: PartSize = PART_SIZE,
): Promise<{ through: number; parts: PartRange[] }> {
  const through = await exportCeiling(store, timeoutMs);
  const parts: PartRange[] = [];
  for (let part = await nextPart(store, format, 0, through, timeoutMs, size); part; ) {
    parts.push(part);
    part = await nextPart(store, format, part.to, through, timeoutMs, size);
  }
  return { through, parts };
}

/**
 * The HTTP export's cursor, `<after>-<through>`: the last id already sent and the ceiling fixed by the first
 * request. Ids of up to 15 digits (exact in a JavaScript number); anything else is no cursor (null: a 400).
 */
export function parseCursor(text: string): { after: number; through: number } | null {
  const match = /^(0|[1-9]\d{0,14})-(0|[1-9]\d{0,14})$/.exec(text);
  if (!match) return null;
  const [after, through] = [Number(match[1]), Number(match[2])];
  return after <= through ? { after, through } : null;
}

export const cursorOf = (after: number, through: number) => `${after}-${through}`;
