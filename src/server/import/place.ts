/**
 * What each row of an import becomes (added, already listed, suppressed, refused), and the batch that gathers them
 * before one statement writes them: the import core (run.ts) reads, this decides.
 */
import type { Attribution } from "../../lib/waitlist/attribution";
import type { databaseKey } from "../crypto/keys";
import { buildMessage } from "../entry";
import { addressKey, storedMailboxKey } from "../mail/mailbox";
import type { ImportedEntry } from "../signup/store";
import type { Format } from "./formats";
import type { AddressesMet } from "./met";
import { type CheckedRow, checkRow } from "./row";
import { FIRST_REASONS, type ImportOptions, type Refusal } from "./types";

/** What a batch holds, by what becomes of each row. */
export interface Batch {
  add: Array<ImportedEntry & { evidence: { what: string; at: Date | null } | null }>;
  suppress: Array<{ part: number; line: number; address: string; reason: string }>;
  refuse: Array<{ part: number; line: number; reason: string }>;
}
export const emptyBatch = (): Batch => ({ add: [], suppress: [], refuse: [] });

export interface Tally {
  added: number;
  existing: number;
  suppressed: number;
  refused: number;
  firstReasons: Refusal[];
}

/**
 * Where the reading stands: the options, the keys, the tally, the addresses met (a duplicate's first line) and
 * the names of the parts read so far (that line's file).
 */
export interface Reading {
  options: ImportOptions;
  now: Date;
  importId: number | null;
  database: Awaited<ReturnType<typeof databaseKey>>;
  met: AddressesMet;
  partNames: string[];
  tally: Tally;
}

/** Where an address was first met, as a refusal names it: its line, and its file when the import has several. */
function firstLine(reading: Reading, first: { part: number; line: number }) {
  const name = reading.partNames[first.part] ?? "";
  return `line ${first.line}${first.part > 0 || name !== reading.options.file.name ? ` of ${name}` : ""}`;
}

const attributionOf = (row: CheckedRow, source: string | null): Attribution => ({
  source: row.source ?? source ?? "import",
  medium: "import",
  campaign: null,
  referrer: null,
  page: null,
});

/** One record's fate, put in the batch (refused, suppressed, or to add). */
export function place(
  reading: Reading,
  batch: Batch,
  format: Format,
  part: { index: number; name: string },
  cells: string[],
  line: number,
  by: (c: readonly string[]) => (column: string) => string,
) {
  const refuse = (reason: string) => {
    batch.refuse.push({ part: part.index, line, reason });
    reading.tally.refused++;
    const refusal = { file: part.name, line, reason };
    if (reading.tally.firstReasons.length < FIRST_REASONS) reading.tally.firstReasons.push(refusal);
    reading.options.onRefused?.(refusal, cells);
  };
  const checked = checkRow(format.read(by(cells)), reading.now);
  if ("refused" in checked) return refuse(checked.refused);
  const { row } = checked;
  const address = addressKey(reading.database, row.email);
  reading.partNames[part.index] = part.name;
  const first = reading.met.firstOrKeep(address, part.index, line);
  if (first) return refuse(`the same address as ${firstLine(reading, first)}`);
  if (row.suppress) {
    batch.suppress.push({ part: part.index, line, address, reason: row.suppress });
    return;
  }
  const confirmed = reading.options.consent === "confirmed";
  if (confirmed && !row.evidence) return refuse("no evidence of consent in the file (--consent confirmed needs it)");
  const createdAt = row.signedUpAt ?? reading.now;
  batch.add.push({
    entry: {
      name: row.name,
      email: row.email,
      message: buildMessage({
        organization: row.organization ?? undefined,
        why: row.why ?? undefined,
        connect: row.connect ?? undefined,
      }),
      organization: row.organization,
      why: row.why,
      connect: row.connect,
      attribution: attributionOf(row, reading.options.source),
      mailboxKey: storedMailboxKey(reading.database, row.email),
      addressKey: address,
    },
    status: confirmed ? "confirmed" : "pending",
    createdAt,
    confirmedAt: confirmed ? (row.evidence?.at ?? createdAt) : null,
    part: part.index,
    line,
    evidence: row.evidence,
  });
}
