/**
 * GET /admin/funnel.csv?range=30|90|all: the funnel by source as a file, every group of every field (the page
 * shows the largest), one row each with its counts and each step's percentage of the step before. It starts at
 * visitors as the page does (issue 51): both cells empty when the range has no visit counted, which 0 would misstate. Cells are
 * written by src/server/csv.ts, so a source such as `=HYPERLINK(…)` (utm values are whatever a link said) opens as
 * text in a spreadsheet. No one's address or name is in it: only counts, so it is not audited like the export.
 */
import { csvRow } from "../../csv";
import { attachment } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import type { Store } from "../../store/types";
import { groupName, groupsOf } from "./funnel";
import { FUNNEL_FIELDS, type Funnel, type FunnelField, type FunnelRow, funnelRange } from "./funnel-store";
import { funnelFromVisitors } from "./funnel-visits";

export const FUNNEL_CSV_HEADER = [
  "signed_up_in",
  "group",
  "value",
  "visitors",
  "signed_up",
  "signed_up_pct_of_visitors",
  "confirmed",
  "confirmed_pct_of_signed_up",
  "invited",
  "invited_pct_of_confirmed",
  "joined",
  "joined_pct_of_invited",
] as const;

const GROUPS: Record<FunnelField | "everyone", string> = {
  everyone: "everyone",
  source: "source",
  medium: "medium",
  campaign: "campaign",
  referrer: "referring site",
  share: "share link",
};

const RANGE_CELL = { "30": "last 30 days", "90": "last 90 days", all: "all time" } as const;

/** A share to one decimal ("66.7"), empty when there was nobody to take it of. */
const pct = (part: number, whole: number) => (whole > 0 ? ((part / whole) * 100).toFixed(1) : "");

function line(range: string, group: string, value: string, row: FunnelRow): string {
  return csvRow([
    range,
    group,
    value,
    row.visitors ?? "",
    row.signedUp,
    row.visitors === undefined ? "" : pct(row.signedUp, row.visitors),
    row.confirmed,
    pct(row.confirmed, row.signedUp),
    row.invited,
    pct(row.invited, row.confirmed),
    row.joined,
    pct(row.joined, row.invited),
  ]);
}

/** The whole file: its header, everyone, then every group of each field and of each answer, as the page orders them. */
export function funnelCsv(funnel: Funnel): string {
  const range = RANGE_CELL[funnel.range];
  const rows = [csvRow(FUNNEL_CSV_HEADER), line(range, GROUPS.everyone, "everyone", funnel.everyone)];
  for (const field of FUNNEL_FIELDS) {
    for (const row of groupsOf(funnel, field)) rows.push(line(range, GROUPS[field], groupName(field, row.value), row));
  }
  // The groups by answer: "answer: team-size", one row per option given (funnel-answers.ts).
  for (const { question, rows: groups } of funnel.answers ?? []) {
    for (const row of groups) rows.push(line(range, `answer: ${question.id}`, row.value ?? "", row));
  }
  return rows.join("");
}

/** The download itself: named for its range and the day ("funnel-30-days-2026-11-27.csv"). */
export async function funnelDownload(store: Store, url: URL, timeoutMs: number): Promise<Response> {
  const range = funnelRange(url.searchParams.get("range"));
  // Today in UTC, as the rollups and the tallies count days.
  const today = new Date().toISOString().slice(0, 10);
  const funnel = await withTimeout(funnelFromVisitors(store.db, range, today), timeoutMs);
  const name = range === "all" ? "funnel-all-time" : `funnel-${range}-days`;
  return attachment(funnelCsv(funnel), "text/csv", name, "csv");
}
