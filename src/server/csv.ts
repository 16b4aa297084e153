/**
 * CSV per RFC 4180 (CRLF rows, quoted fields), safe to open in a spreadsheet whatever separator it splits on
 * (`,` or `;`, as much of continental Europe does) and safe to print to a terminal.
 */

/**
 * Where a spreadsheet may start a cell: the field's start, or after a separator (`,` `;`), a line break or a
 * quote (which a mismatched separator leaves in the text), then any quotes. There a `'` (which spreadsheets
 * read as "this is text") goes before a tab or CR, and before `=`, `+`, `-` or `@` even behind whitespace
 * (some spreadsheets trim it away).
 */
const BOUNDARY = `(?:^|[,;\\r\\n"])`;
const CELL_START = new RegExp(`(?<=${BOUNDARY}"*)(?=[\\t\\r])|(?<=${BOUNDARY}[\\s"]*)(?=[=+\\-@])`, "g");
/** C0 and C1 control characters other than tab and line breaks: shown as `\u001b`, never sent to a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Control characters made visible (`\u001b`), so an export printed to a terminal cannot drive it. */
export function visibleControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * One cell. A cell holding a separator, quote, line break or tab is quoted (so a reader splitting on tabs, or
 * guessing the separator, keeps it whole). `exact`: no formula guard, the value exactly as stored (for a mailing
 * tool's import, where `-bob@example.com` must stay as it is; such a file is not for spreadsheets).
 */
export function csvCell(value: unknown, options: { exact?: boolean } = {}): string {
  const raw = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  const visible = visibleControls(raw);
  const text = options.exact ? visible : visible.replace(CELL_START, "'");
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-terminated) of `values`, each written by `cell`. */
export function csvRow(values: readonly unknown[], cell: (value: unknown) => string = csvCell): string {
  return `${values.map((value) => cell(value)).join(",")}\r\n`;
}
