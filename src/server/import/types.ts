/** The import's shapes, one for the CLI, the console and the background runs: options, the report, a refusal. */
import type { Store } from "../store/types";

/** Rows read, checked and written together: one statement each way per batch. */
export const BATCH = 1000;
/** How many refusals a report names (all of them go to the refused file). */
export const FIRST_REASONS = 10;

export type ConsentMode = "confirmed" | "ask";

/** A file to import: its name, and its bytes from the start each time it is opened (it is read twice). */
export interface ImportFile {
  name: string;
  open: () => AsyncIterable<Uint8Array>;
}

export interface ImportOptions {
  store: Store;
  file: ImportFile;
  consent: ConsentMode;
  /** --source: the source of rows whose file names none (default "import"). */
  source: string | null;
  /** false: a dry run, nothing changes. */
  apply: boolean;
  /** Who imports, for the audit log: "CLI", an admin's address. */
  actor: string;
  /** The import's time (tests fix it): the place in line of rows without a date. */
  now?: Date;
  /** Each refused row, as it is met (the refused file is written from these). */
  onRefused?: (refusal: Refusal, cells: readonly string[]) => void;
  onProgress?: (lines: number) => void;
}

/** A refused row: which file (a ZIP's member, else the file), its line (header: 1) and why. */
export interface Refusal {
  file: string;
  line: number;
  reason: string;
}

export interface ImportReport {
  /** Each file read and the format its header showed. */
  formats: Array<{ file: string; format: string; reads: readonly string[] }>;
  fileHash: string;
  importId: number | null;
  /** This file had been imported, whole: nothing was read again. */
  alreadyDone: boolean;
  added: number;
  existing: number;
  suppressed: number;
  refused: number;
  firstReasons: Refusal[];
  /** Confirmation e-mails still owed (asking consent). */
  unmailed: number;
}

/** A bad file or option: said in words, and nothing was changed. */
export class ImportRefused extends Error {
  override name = "ImportRefused";
}
