/**
 * The funnel by source: for each source, medium, campaign, referring site and the share links, how many signed up,
 * and of them how many confirmed, were invited and joined, in the last 30 or 90 days or in all (by sign-up day,
 * UTC). Read from the tally the database keeps by day, field, value and status (migration 0018), never from the
 * list: a few thousand tally rows at a million sign-ups. Built only from what each row records (its source fields
 * and whether a referral row names it); nothing is followed by cookie. A removed person leaves the counts, as they
 * leave the list. "Confirmed" counts everyone who got that far (confirmed, invited or joined): a status only moves on.
 */
import type { Db } from "../../db/types";
import type { EntryStatus } from "../../entry";

/** A question's groups: each option someone in the range gave, in the file's order (funnel-answers.ts reads them). */
export interface AnswerFunnel {
  question: Question;
  rows: FunnelRow[];
}

import type { Question } from "../../../lib/waitlist/questions";

/** Today in UTC, whatever the session's time zone: the tally counts days of created_at in UTC. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

export const FUNNEL_FIELDS = ["source", "medium", "campaign", "referrer", "share"] as const;
export type FunnelField = (typeof FUNNEL_FIELDS)[number];

/** The ranges the page and the CSV offer: 30 or 90 days of sign-ups (today included), or every sign-up. */
export const FUNNEL_RANGES = ["30", "90", "all"] as const;
export type FunnelRange = (typeof FUNNEL_RANGES)[number];

/** The range a query string asks for (`range=30|90|all`); anything else is the default, 30 days. */
export function funnelRange(given: string | null): FunnelRange {
  return (FUNNEL_RANGES as readonly string[]).includes(given ?? "") ? (given as FunnelRange) : "30";
}

export const FUNNEL_SQL = {
  /** Sign-ups of the last $1 days (UTC, today included) by field, value and status now. */
  recent: `SELECT field, value, status, sum(count)::bigint AS count FROM waitlist_funnel_tally
    WHERE day > ${TODAY} - $1::int
    GROUP BY field, value, status HAVING sum(count) <> 0`,
  /** Every sign-up on the list by field, value and status now. */
  all: `SELECT field, value, status, sum(count)::bigint AS count FROM waitlist_funnel_tally
    GROUP BY field, value, status HAVING sum(count) <> 0`,
} as const;

/** One group's way through: how many signed up, and how many of them reached each step since. */
export interface FunnelRow {
  /** The source, medium, campaign or site as recorded; null: none recorded (or, for "share", the share links). */
  value: string | null;
  /** The site's visitors of the group in the range, when read (funnel-visits.ts): where the funnel starts. */
  visitors?: number;
  signedUp: number;
  confirmed: number;
  invited: number;
  joined: number;
}

export interface Funnel {
  range: FunnelRange;
  /** Everyone who signed up in the range: the line each group is read against. */
  everyone: FunnelRow;
  /** Each field's groups, most sign-ups first (none recorded last among equals). */
  fields: Record<FunnelField, FunnelRow[]>;
  /** Each choice question's options, as groups (funnel-answers.ts); none when the file asks none. */
  answers?: AnswerFunnel[];
}

/** Whole percent of `part` in `whole`, or null when there is no whole to take it of. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/** Folds status counts into the funnel's steps: a person counts at every step up to where they are. */
export function stepsOf(value: string | null, byStatus: Partial<Record<EntryStatus, number>>): FunnelRow {
  const [pending, confirmed, invited, joined] = (["pending", "confirmed", "invited", "joined"] as const).map(
    (status) => byStatus[status] ?? 0,
  ) as [number, number, number, number];
  return {
    value,
    signedUp: pending + confirmed + invited + joined,
    confirmed: confirmed + invited + joined,
    invited: invited + joined,
    joined,
  };
}

type TallyRow = { field: "all" | FunnelField; value: string | null; status: EntryStatus; count: number | string };

/** The tally's sums as the funnel: one row per field and value. */
export function funnelOf(range: FunnelRange, rows: readonly TallyRow[]): Funnel {
  const groups = new Map<string, { field: TallyRow["field"]; value: string | null; counts: Record<string, number> }>();
  for (const row of rows) {
    const key = JSON.stringify([row.field, row.value]);
    const group = groups.get(key) ?? { field: row.field, value: row.value, counts: {} };
    group.counts[row.status] = (group.counts[row.status] ?? 0) + Number(row.count);
    groups.set(key, group);
  }
  const fields = Object.fromEntries(FUNNEL_FIELDS.map((field) => [field, [] as FunnelRow[]])) as Record<
    FunnelField,
    FunnelRow[]
  >;
  let everyone = stepsOf(null, {});
  for (const group of groups.values()) {
    const row = stepsOf(group.value, group.counts);
    if (row.signedUp <= 0) continue;
    if (group.field === "all") everyone = row;
    else fields[group.field].push(row);
  }
  for (const list of Object.values(fields)) {
    list.sort(
      (a, b) =>
        b.signedUp - a.signedUp ||
        Number(a.value === null) - Number(b.value === null) ||
        (a.value ?? "").localeCompare(b.value ?? "", "en"),
    );
  }
  return { range, everyone, fields };
}

export function createFunnelStore(db: Db) {
  return {
    async funnel(range: FunnelRange): Promise<Funnel> {
      const rows =
        range === "all"
          ? await db.query<TallyRow>(FUNNEL_SQL.all)
          : await db.query<TallyRow>(FUNNEL_SQL.recent, [Number(range)]);
      return funnelOf(range, rows);
    },
  };
}
