/**
 * What the People page reads beside its list (list.ts): the values its filters offer (from the day tallies of
 * migration 0008 and the answer tally of 0025, never a scan of the list), the wave a `wave=` filter names (by its
 * date and size, never its id), the people a bulk action was given (by id, at most one page of them), and what a
 * bulk removal did (from its own audit entry, so a number typed into the address shows nothing that did not happen).
 */
import { type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../../data-key";
import type { Db } from "../../db/types";
import type { EntryStatus } from "../../entry";
import { createSegmentStore, type OfferedQuestion } from "../../segments";
import { BREAKDOWN_FIELDS, type BreakdownField } from "../../store/types";

/** How many values of each source field the filters offer: the most common, of all time. */
export const OFFERED_VALUES = 30;

export const PEOPLE_SQL = {
  /** Each source field's `$1` most common recorded values of all time, with how many signed up with each. */
  values: `SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value) AS rank
      FROM waitlist_day_tally WHERE field <> 'all' AND value IS NOT NULL
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $1 ORDER BY field, rank`,
  /** Wave `$1`: when it started, how many it was to invite, how many it invited, whether it ended. */
  wave: `SELECT started_at, size, invited, refused, finished_at IS NOT NULL AS finished
    FROM waitlist_invite_wave WHERE id = $1`,
  /** People `$1` (ids), newest first: what a bulk action needs to name them and to decide for each. */
  people: `SELECT id, ${PERSON_COLUMNS}, status, created_at, source, invite_wave_id IS NOT NULL AS held,
    mail_suppressed AS suppressed
    FROM waitlist WHERE id = ANY($1::bigint[]) ORDER BY created_at DESC, id DESC`,
  /** The end of the bulk removal that audit entry `$1` started: how many it removed. */
  removed: `SELECT details FROM waitlist_audit
    WHERE action = 'remove-selected' AND (details ->> 'started')::bigint = $1::bigint`,
} as const;

export type OfferedValues = Record<BreakdownField, Array<{ value: string; count: number }>>;

export interface WaveSummary {
  startedAt: string;
  size: number;
  invited: number;
  refused: number;
  finished: boolean;
}

export interface ChosenPerson {
  id: number;
  email: string;
  name: string | null;
  status: EntryStatus;
  createdAt: string;
  source: string | null;
  /** A wave is sending them their invitation right now. */
  held: boolean;
  /** Their address is on the suppression list: no wave takes them (invitations/wave.ts, the line). */
  suppressed: boolean;
}

export function peopleData(db: Db, dataKeys: DataKeys | null) {
  return {
    async values(limit = OFFERED_VALUES): Promise<OfferedValues> {
      const rows = await db.query<{ field: BreakdownField; value: string; count: number }>(PEOPLE_SQL.values, [limit]);
      const values = Object.fromEntries(BREAKDOWN_FIELDS.map((field) => [field, []])) as unknown as OfferedValues;
      for (const row of rows) values[row.field].push({ value: row.value, count: Number(row.count) });
      return values;
    },
    /** Each choice question's options with how many gave each (the answer tally, migration 0025). */
    answers: (): Promise<OfferedQuestion[]> => createSegmentStore(db).offered(),
    async wave(id: number): Promise<WaveSummary | null> {
      const [row] = await db.query<Record<string, unknown>>(PEOPLE_SQL.wave, [id]);
      if (!row) return null;
      return {
        startedAt: new Date(row["started_at"] as string).toISOString(),
        size: Number(row["size"]),
        invited: Number(row["invited"]),
        refused: Number(row["refused"]),
        finished: Boolean(row["finished"]),
      };
    },
    async people(ids: readonly number[]): Promise<ChosenPerson[]> {
      type Row = StoredPerson & { id: number; status: EntryStatus; created_at: unknown; source: string | null };
      const rows = await db.query<Row & { held: boolean; suppressed: boolean }>(PEOPLE_SQL.people, [ids]);
      return rows.map((row) => {
        const { email, name } = personOf(dataKeys, row);
        const createdAt = new Date(row.created_at as string).toISOString();
        const { held, suppressed } = row;
        return { id: Number(row.id), email, name, status: row.status, createdAt, source: row.source, held, suppressed };
      });
    },
    /** How many the bulk removal started by audit entry `started` removed; null when there is no such removal. */
    async removed(started: number): Promise<number | null> {
      const [row] = await db.query<{ details: unknown }>(PEOPLE_SQL.removed, [started]);
      if (!row) return null;
      const details = (typeof row.details === "string" ? JSON.parse(row.details) : row.details) as Record<
        string,
        unknown
      >;
      return Number(details["removed"] ?? 0);
    },
  };
}
