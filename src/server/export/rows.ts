/**
 * The waitlist as a file, streamed: batches of rows read one after another (keyset pages, each query with its
 * own time limit) and written as they come, so an export of any size holds one batch in memory and never meets
 * a statement timeout. The function, the console and the CLI all export through here.
 */
import { EXPORT_COLUMNS, NO_LONGER_ASKED, QUESTIONS, type Question } from "../../lib/waitlist/questions";
import { answerText, mergedAnswers } from "../answers";
import { csvCell, csvRow, visibleControls } from "../csv";
import { withTimeout } from "../http/timeout";
import type { ExportedEntry, ListOptions, ListPage, Store } from "../store/types";

/** The export's own columns (questions.ts lists them and says their order), each a field of the entry. */
const COLUMNS = EXPORT_COLUMNS satisfies ReadonlyArray<keyof ExportedEntry>;

/**
 * After the fixed columns: one per question asked today, headed by its id (a `multiple` answer's options joined
 * by "; "), then the answers to questions since removed from questions.json, as JSON by id: still readable,
 * under a header that says they are no longer asked. A team that asks no questions sees the file it always had:
 * the header is written before any row is read, and knowing whether some row holds a removed answer would cost a
 * scan of the list first, so with an empty questions.json removed answers are in the JSON export and on the
 * person page only.
 */
export const csvColumns = (questions: readonly Question[] = QUESTIONS): string[] =>
  questions.length === 0 ? [...COLUMNS] : [...COLUMNS, ...questions.map((q) => q.id), NO_LONGER_ASKED];

/** The entry's answers as export cells: by question id, and the removed questions' as JSON (null: none). */
export function answerCells(entry: ExportedEntry, questions: readonly Question[] = QUESTIONS) {
  const all = mergedAnswers(entry.answers, entry.choices, questions);
  const cells: Record<string, string | null> = {};
  for (const q of questions) cells[q.id] = answerText(all[q.id]);
  const removed = Object.entries(all).filter(([id]) => !questions.some((q) => q.id === id));
  cells[NO_LONGER_ASKED] = removed.length > 0 ? JSON.stringify(Object.fromEntries(removed)) : null;
  return { all, cells };
}

/** For a mailing tool's import: the address exactly as given, and the name. */
export const MAIL_COLUMNS = ["email", "name"] as const satisfies ReadonlyArray<keyof ExportedEntry>;

/**
 * `csv`: every column, safe to open in a spreadsheet (a cell that could start a formula gets a leading `'`).
 * `mail-csv`: address and name only, each exactly as stored (plain RFC 4180), for a mailing tool's import: an
 * address such as `-bob@example.com` must reach it unchanged. Not for spreadsheets. `json`: an array of objects.
 */
export type ExportFormat = "csv" | "mail-csv" | "json";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["csv", "mail-csv", "json"];

export const EXPORT_TYPES: Record<ExportFormat, { type: string; extension: string }> = {
  csv: { type: "text/csv", extension: "csv" },
  "mail-csv": { type: "text/csv", extension: "csv" },
  json: { type: "application/json", extension: "json" },
};

/** Rows per query: enough to amortise a round trip (an HTTP request with Neon), few enough for a batch of a few hundred KB. */
export const EXPORT_BATCH = 200;

export interface ExportOptions extends ListOptions {
  since?: Date | undefined;
  /** Only entries after this id (0, the default: from the first); with `through`, one part (export/parts.ts). */
  after?: number;
  /** The time limit of each batch's query (not of the whole export). */
  timeoutMs: number;
  batch?: number;
}

/** The entries, batch by batch, oldest first; the next batch is read only when this one has been taken. */
export async function* entryBatches(store: Store, options: ExportOptions): AsyncGenerator<ExportedEntry[]> {
  for (let after: number | null = options.after ?? 0; after !== null; ) {
    const page: ListPage = await withTimeout(
      store.listPage(after, options.batch ?? EXPORT_BATCH, options.since, options),
      options.timeoutMs,
    );
    if (page.rows.length > 0) yield page.rows;
    after = page.next;
  }
}

/**
 * entryBatches with the first batch already read: a database that does not answer fails here, before a byte of
 * the file is written (so the caller can still answer 503, or write nothing to standard output).
 */
export async function openBatches(store: Store, options: ExportOptions): Promise<AsyncIterable<ExportedEntry[]>> {
  const batches = entryBatches(store, options);
  const first = await batches.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* batches;
  })();
}

/** A batch in slices of a few rows, so no piece of text grows past a few tens of KB. */
function* slices<T>(rows: readonly T[], size = 16): Generator<readonly T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** A JSON entry: the fixed columns, then `answers` by question id (removed questions' too) when there are any. */
const jsonEntry = (entry: ExportedEntry) => {
  const { all } = answerCells(entry);
  const fields = Object.fromEntries(COLUMNS.map((column) => [column, entry[column]]));
  const answers = Object.keys(all).length > 0 ? { answers: all } : {};
  return JSON.stringify({ ...fields, ...answers }, null, 2).replace(/^/gm, "  ");
};

/**
 * The file's text, one array of pieces per step: the header, then each batch's text, then the end. A batch is
 * turned into text at once, so its rows are garbage before the next step (short-lived objects are the cheap kind
 * to collect), and in pieces of a few tens of KB, so no piece is a large object kept until a full collection.
 */
export async function* exportParts(
  batches: AsyncIterable<readonly ExportedEntry[]> | Iterable<readonly ExportedEntry[]>,
  format: ExportFormat,
): AsyncGenerator<string[]> {
  if (format === "json") {
    let first = true;
    for await (const entries of batches) {
      const parts: string[] = [];
      for (const part of slices(entries)) {
        // JSON escapes C0 controls itself; C1 controls (e.g. U+009B, a terminal's CSI) are made visible too.
        parts.push(`${first ? "[\n" : ",\n"}${visibleControls(part.map(jsonEntry).join(",\n"))}`);
        first = false;
      }
      yield parts;
    }
    yield [first ? "[]\n" : "\n]\n"];
    return;
  }
  const columns = format === "csv" ? csvColumns() : MAIL_COLUMNS;
  const cell = format === "csv" ? csvCell : (value: unknown) => csvCell(value, { exact: true });
  yield [csvRow(columns, cell)];
  const line = (entry: ExportedEntry) => {
    const answers: Record<string, unknown> = format === "csv" ? answerCells(entry).cells : {};
    return csvRow(
      columns.map((column) =>
        Object.hasOwn(answers, column) ? answers[column] : entry[column as keyof ExportedEntry],
      ),
      cell,
    );
  };
  for await (const entries of batches) yield [...slices(entries)].map((part) => part.map(line).join(""));
}

/** The whole file as one string (tests, small lists). */
export async function formatEntries(entries: readonly ExportedEntry[], format: ExportFormat): Promise<string> {
  let text = "";
  for await (const parts of exportParts([entries], format)) text += parts.join("");
  return text;
}

/**
 * A byte stream of the export for a Response body, pulled: the next batch is read only when the client has
 * taken the last, so a slow client holds the database to one batch at a time and memory to one batch. The first
 * batch is read before it resolves, so a database that does not answer is an error the caller can still answer
 * (503); a later batch that fails ends the stream with an error (an incomplete transfer, never a short file).
 */
export async function openExport(
  store: Store,
  format: ExportFormat,
  options: ExportOptions,
  onEnd: (outcome: { rows: number; error?: unknown }) => void = () => {},
): Promise<ReadableStream<Uint8Array>> {
  // A file for a mailing tool never lists anyone the product itself would not mail (suppressed).
  const batches = await openBatches(store, { ...options, mailable: format === "mail-csv" });
  let rows = 0;
  const counted = (async function* () {
    for await (const entries of batches) {
      rows += entries.length;
      yield entries;
    }
  })();
  const parts = exportParts(counted, format);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await parts.next();
        if (done) {
          controller.close();
          onEnd({ rows });
        } else {
          for (const part of value) controller.enqueue(encoder.encode(part));
        }
      } catch (error) {
        controller.error(error);
        onEnd({ rows, error });
      }
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}
