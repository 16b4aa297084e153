/** The console's SQL: totals and the chart and sources from the tallies the database keeps, and an erasure. */
import { addressKeys, type DataKeys } from "../data-key";
import type { Db } from "../db/types";
import { ENTRY_STATUSES, type EntryStatus } from "../entry";
import { BREAKDOWN_FIELDS, type BreakdownField, type StatusCounts } from "../store/types";

/** Today in UTC, whatever the session's time zone: the tallies count days of created_at in UTC. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

export const CONSOLE_SQL = {
  /** Rows by status, from the tally the database keeps beside the table (migration 0008), never a count of it. */
  count: `SELECT status, sum(count)::bigint AS count FROM waitlist_tally GROUP BY status`,
  /** Sign-ups of the last $1 days (UTC) by source, medium, campaign and referring site: the $2 most of each. */
  breakdown: `SELECT field, value, count FROM (
      SELECT field, value, sum(count)::bigint AS count,
        row_number() OVER (PARTITION BY field ORDER BY sum(count) DESC, value NULLS LAST) AS rank
      FROM waitlist_day_tally WHERE day > ${TODAY} - $1::int AND field <> 'all'
      GROUP BY field, value HAVING sum(count) > 0
    ) ranked WHERE rank <= $2 ORDER BY field, rank`,
  /** An erasure: the entry of address $1 (any case) and, with it, its tokens. */
  erase: "DELETE FROM waitlist WHERE lower(email) = ANY($1::text[]) RETURNING id",
  /** Sign-ups per day (UTC) of the last $1 days, today included; a day without any reads 0. */
  perDay: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(t.count, 0)::bigint AS count
    FROM generate_series(${TODAY} - ($1::int - 1), ${TODAY}, interval '1 day') AS d(day)
    LEFT JOIN waitlist_day_tally t ON t.day = d.day::date AND t.field = 'all' AND t.value IS NULL
    ORDER BY d.day`,
} as const;

export function createConsoleStore(db: Db, dataKeys: DataKeys | null) {
  const store = {
    async count(): Promise<number> {
      return (await store.countByStatus()).total;
    },
    async countByStatus(): Promise<StatusCounts> {
      const rows = await db.query<{ status: EntryStatus; count: number }>(CONSOLE_SQL.count);
      const counts = Object.fromEntries(ENTRY_STATUSES.map((status) => [status, 0])) as StatusCounts;
      counts.total = 0;
      for (const row of rows) {
        counts[row.status] = Number(row.count);
        counts.total += Number(row.count);
      }
      return counts;
    },
    async breakdown(days: number, limit: number) {
      const rows = await db.query<{ field: BreakdownField; value: string | null; count: number }>(
        CONSOLE_SQL.breakdown,
        [days, limit],
      );
      const result = Object.fromEntries(BREAKDOWN_FIELDS.map((field) => [field, []])) as unknown as Record<
        BreakdownField,
        Array<{ value: string | null; count: number }>
      >;
      for (const row of rows) result[row.field].push({ value: row.value, count: Number(row.count) });
      return result;
    },
    async erase(email: string): Promise<boolean> {
      return (await db.query(CONSOLE_SQL.erase, [addressKeys(dataKeys, email)])).length > 0;
    },
    async perDay(days: number) {
      return (await db.query<{ day: string; count: number }>(CONSOLE_SQL.perDay, [days])).map((r) => ({
        ...r,
        count: Number(r.count),
      }));
    },
  };
  return store;
}
