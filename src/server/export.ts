import { ATTRIBUTION_FIELDS } from "../lib/waitlist/attribution";
import { toCsv, visibleControls } from "./csv";
import type { ExportedEntry } from "./store";

/**
 * New columns go at the end, so a reader of the earlier ones keeps working: `status` (double opt-in), then when
 * the person was invited and joined, then where the sign-up came from.
 */
export const EXPORT_COLUMNS = [
  "created_at",
  "name",
  "email",
  "message",
  "status",
  "invited_at",
  "joined_at",
  ...ATTRIBUTION_FIELDS,
] as const;
export type ExportFormat = "csv" | "json";

/** The waitlist as CSV (RFC 4180, formulas neutralised) or as a JSON array. */
export function formatEntries(entries: readonly ExportedEntry[], format: ExportFormat): string {
  // JSON escapes C0 controls itself; C1 controls (e.g. U+009B, a terminal's CSI) are made visible too.
  if (format === "json") return `${visibleControls(JSON.stringify(entries, null, 2))}\n`;
  return toCsv(EXPORT_COLUMNS, entries as unknown as ReadonlyArray<Record<string, unknown>>);
}
