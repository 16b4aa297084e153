/**
 * The chart's words and numbers, apart from its drawing (chart.tsx): the colours of each status (one table for the
 * bars and the legend), round scales, days as people write them, and the one sentence that says what the chart
 * shows (its description, and the line above it).
 */
import { counted } from "../../../lib/plural";
import type { EntryStatus } from "../../entry";
import type { ChartDay, ChartMark } from "../store";

/**
 * Each status's colour, from the site's palette (theme.ts), each at least 3:1 against white, and told apart by
 * hue and by lightness. Bars stack from the bottom in the order a person moves: joined, invited, confirmed, pending.
 */
export const STATUS_COLOURS: Record<EntryStatus, string> = {
  pending: "#b54708",
  confirmed: "#7258f5",
  invited: "#1570ef",
  joined: "#067647",
};
export const STACK_ORDER: readonly EntryStatus[] = ["joined", "invited", "confirmed", "pending"];
/** The running total's line and the marks: the site's ink. */
export const LINE_COLOUR = "#0b1020";
/** Visitors per day: a dashed line on the per-day scale (issue 51). */
export const VISITORS_COLOUR = "#b4235a";
export const MARK_COLOUR = "#4a5680";
export const AXIS_COLOUR = "#5e6a92";
export const GRID_COLOUR = "#e7eaf4";
export const TEXT_COLOUR = "#334066";

/** The smallest round number (2, 4, 6, 8 or 10 times a power of ten) at or above `n`: its half is whole too. */
export function niceMax(n: number): number {
  if (n <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * power >= n && (step * power) % 2 === 0) return step * power;
  return 10 * power;
}

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const LONG_DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const at = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** "26 Nov" for 2026-11-26 (a UTC day). */
export const dayLabel = (iso: string) => DAY.format(at(iso));
/** "26 Nov 2026". */
export const longDayLabel = (iso: string) => LONG_DAY.format(at(iso));

/** A wave or an update in words: "a wave invited 120 people", "the update “Spring news” went to 2,000 people". */
export function markWords(mark: ChartMark): string {
  return mark.kind === "wave"
    ? `a wave invited ${counted(mark.people, "person", "people")}`
    : `the update “${mark.subject ?? ""}” went to ${counted(mark.people, "person", "people")}`;
}

/** What the chart shows, in one sentence (its description, and the line people read above it). */
export function describeGrowth(days: readonly ChartDay[]): string {
  if (days.length === 0) return "No days to show.";
  const first = days[0] as ChartDay;
  const last = days.at(-1) as ChartDay;
  const total = days.reduce((sum, d) => sum + d.total, 0);
  const span = `${days.length} days from ${longDayLabel(first.day)} to ${longDayLabel(last.day)}`;
  if (total === 0)
    return `No sign-ups in the ${span}; ${counted(last.running, "person", "people")} on the list in all.`;
  const busiest = days.reduce((best, d) => (d.total > best.total ? d : best), first);
  return `${counted(total, "sign-up")} in the ${span}; the most in a day: ${busiest.total.toLocaleString("en")}, on ${longDayLabel(busiest.day)}. ${counted(last.running, "person", "people")} on the list in all.`;
}
