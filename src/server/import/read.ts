/**
 * A file from another tool, read as records: streamed (never whole), by csv-parse (RFC 4180: quoted separators,
 * quotes and line breaks), whatever the exporting tool chose for encoding (UTF-8 with or without a byte-order mark,
 * Excel's UTF-16 "Unicode text"), separator (`,`, `;` as continental Excel writes, or a tab) and line ends (CRLF, LF,
 * mixed). Each record carries the line it starts on, the header being line 1, as a spreadsheet numbers them.
 */
import { Readable } from "node:stream";
import { parse } from "csv-parse";

/** One record of the file: its cells, and the line it starts on (header: 1). */
export interface FileRecord {
  line: number;
  cells: string[];
}

/** A file that is not a CSV the import can read: said in words, nothing changed. */
export class UnreadableFile extends Error {
  override name = "UnreadableFile";
}

/** The encoding the file's first bytes declare (a BOM) or show (UTF-16's zero bytes beside ASCII). */
export function encodingOf(head: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  if (head.length >= 4 && head[1] === 0 && head[3] === 0 && head[0] !== 0) return "utf-16le";
  if (head.length >= 4 && head[0] === 0 && head[2] === 0 && head[1] !== 0) return "utf-16be";
  return "utf-8";
}

/** The separator of the header line: whichever of `,` `;` tab it holds most of outside quotes (`,` on a tie). */
export function separatorOf(headerLine: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const c of headerLine) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c in counts) counts[c] = (counts[c] ?? 0) + 1;
  }
  return [";", "\t"].reduce((best, c) => ((counts[c] ?? 0) > (counts[best] ?? 0) ? c : best), ",");
}

/** The file's bytes as text, decoded as its start says (a BOM is dropped), chunk by chunk. */
async function* decoded(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  for await (const chunk of chunks) {
    decoder ??= new TextDecoder(encodingOf(chunk), { fatal: false });
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder?.decode() ?? "";
  if (rest) yield rest;
}

/** The decoded text with its separator, found in the first line (read ahead until a line break, or 64 KB). */
async function withSeparator(chunks: AsyncIterable<Uint8Array>) {
  const text = decoded(chunks)[Symbol.asyncIterator]();
  let head = "";
  while (!/[\r\n]/.test(head) && head.length < 65_536) {
    const next = await text.next();
    if (next.done) break;
    head += next.value;
  }
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? "";
  async function* all() {
    if (head) yield head;
    for (;;) {
      const next = await text.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { separator: separatorOf(firstLine), text: all() };
}

/** How many line breaks a record's cells hold (a quoted cell may span lines): the lines it spans, less one. */
const breaksIn = (cells: readonly string[]) =>
  cells.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);

/**
 * Every record of the file, header first, each with the line it starts on. Empty lines are skipped (they count as
 * lines: numbers stay the spreadsheet's); the last record is read with or without a final line break. A quote left
 * open, or a record the parser cannot read, is an UnreadableFile naming its line.
 */
export async function* readRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FileRecord> {
  const { separator, text } = await withSeparator(chunks);
  const parser = parse({
    delimiter: separator,
    record_delimiter: ["\r\n", "\n", "\r"],
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
  });
  const source = Readable.from(text);
  // pipe() does not pass a failing source on: the reader would wait for ever (and the failure go unhandled).
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { line: info.lines - breaksIn(record), cells: record };
    }
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    if (typeof code === "string" && code.startsWith("CSV_")) {
      throw new UnreadableFile(`the file cannot be read as CSV near line ${lines ?? "?"} (${code}).`);
    }
    throw error;
  } finally {
    source.destroy();
    parser.destroy();
  }
}
