/**
 * The console's SQL: totals and sources from the tallies the database keeps, and an erasure (the Store's part);
 * and the first page's own reads: the chart's days by status (the funnel's tally, migration 0018), the waves and
 * updates that went out in its days, and whether suppressions are rising. Each reads a tally or an index, never
 * the list.
 */
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
  /**
   * The chart: sign-ups of each of the last $1 days (UTC, today included; a day without any has one row with a
   * NULL status) by their status now, and a row with a NULL day per status for the sign-ups before those days
   * (where the running total starts).
   */
  chart: `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, t.status, coalesce(t.count, 0)::bigint AS count
    FROM generate_series(${TODAY} - ($1::int - 1), ${TODAY}, interval '1 day') AS d(day)
    LEFT JOIN (SELECT day, status, sum(count) AS count FROM waitlist_funnel_tally
      WHERE field = 'all' AND day > ${TODAY} - $1::int GROUP BY day, status) t ON t.day = d.day::date
    UNION ALL
    SELECT NULL, status, sum(count)::bigint FROM waitlist_funnel_tally
    WHERE field = 'all' AND day <= ${TODAY} - $1::int GROUP BY status
    ORDER BY 1 NULLS FIRST, 2`,
  /** The waves and updates that went out (invited or sent someone) in the last $1 days (UTC), oldest first. */
  marks: `SELECT kind, to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, n, subject FROM (
      SELECT 'wave' AS kind, started_at AS at, invited AS n, NULL AS subject FROM waitlist_invite_wave
      WHERE invited > 0 AND (started_at AT TIME ZONE 'UTC')::date > ${TODAY} - $1::int
      UNION ALL
      SELECT 'update', created_at, sent, subject FROM waitlist_update
      WHERE sent > 0 AND (created_at AT TIME ZONE 'UTC')::date > ${TODAY} - $1::int
    ) m ORDER BY at, kind LIMIT 200`,
  /** Mailboxes suppressed in the last 24 hours and in the 7 days before, by why (mail_suppression_at_idx). */
  suppressions: `SELECT reason,
      count(*) FILTER (WHERE suppressed_at > now() - interval '1 day')::int AS last_day,
      count(*) FILTER (WHERE suppressed_at <= now() - interval '1 day')::int AS week_before
    FROM mail_suppression WHERE suppressed_at > now() - interval '8 days' GROUP BY reason ORDER BY reason`,
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

/** A day of the chart: its sign-ups by their status now, their sum, and how many were on the list by its end. */
export interface ChartDay {
  day: string;
  counts: Record<EntryStatus, number>;
  total: number;
  running: number;
  /** The site's visitors that day (src/server/visits/), when the overview read them. */
  visitors?: number;
}

/** A wave or an update that went out on a day of the chart: a wave by how many it invited, an update by its subject. */
export interface ChartMark {
  kind: "wave" | "update";
  day: string;
  /** Invited by the wave, or sent the update. */
  people: number;
  subject: string | null;
}

/** New suppressions in the last 24 hours and in the 7 days before, and the last day's by why. */
export interface SuppressionTrend {
  lastDay: number;
  weekBefore: number;
  reasons: Array<{ reason: string; count: number }>;
}

const noCounts = () => Object.fromEntries(ENTRY_STATUSES.map((status) => [status, 0])) as Record<EntryStatus, number>;

/** The first page's own reads (see CONSOLE_SQL.chart, marks, suppressions). */
export function createOverviewStore(db: Db) {
  return {
    async chart(days: number): Promise<ChartDay[]> {
      const rows = await db.query<{ day: string | null; status: EntryStatus | null; count: number | string }>(
        CONSOLE_SQL.chart,
        [days],
      );
      const byDay = new Map<string, ChartDay>();
      let before = 0;
      for (const row of rows) {
        if (row.day === null) {
          before += Number(row.count);
          continue;
        }
        const day = byDay.get(row.day) ?? { day: row.day, counts: noCounts(), total: 0, running: 0 };
        if (row.status) {
          day.counts[row.status] += Number(row.count);
          day.total += Number(row.count);
        }
        byDay.set(row.day, day);
      }
      let running = before;
      return [...byDay.values()].map((day) => {
        running += day.total;
        return { ...day, running };
      });
    },
    async marks(days: number): Promise<ChartMark[]> {
      const rows = await db.query<{ kind: ChartMark["kind"]; day: string; n: number; subject: string | null }>(
        CONSOLE_SQL.marks,
        [days],
      );
      return rows.map((row) => ({ kind: row.kind, day: row.day, people: Number(row.n), subject: row.subject }));
    },
    async suppressions(): Promise<SuppressionTrend> {
      const rows = await db.query<{ reason: string; last_day: number; week_before: number }>(CONSOLE_SQL.suppressions);
      return {
        lastDay: rows.reduce((sum, row) => sum + Number(row.last_day), 0),
        weekBefore: rows.reduce((sum, row) => sum + Number(row.week_before), 0),
        reasons: rows
          .filter((row) => Number(row.last_day) > 0)
          .map((row) => ({ reason: row.reason, count: Number(row.last_day) }))
          .sort((a, b) => b.count - a.count),
      };
    },
  };
}
