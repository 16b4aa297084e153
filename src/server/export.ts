import { toCsv, visibleControls } from "./csv";
import type { ExportedEntry } from "./store";

/** `status` is last, so a reader of the four columns before it (no double opt-in) keeps working. */
export const EXPORT_COLUMNS = ["created_at", "name", "email", "message", "status"] as const;
export type ExportFormat = "csv" | "json";

/** The waitlist as CSV (RFC 4180, formulas neutralised) or as a JSON array. */
export function formatEntries(entries: readonly ExportedEntry[], format: ExportFormat): string {
  // JSON escapes C0 controls itself; C1 controls (e.g. U+009B, a terminal's CSI) are made visible too.
  if (format === "json") return `${visibleControls(JSON.stringify(entries, null, 2))}\n`;
  return toCsv(EXPORT_COLUMNS, entries as unknown as ReadonlyArray<Record<string, unknown>>);
}
