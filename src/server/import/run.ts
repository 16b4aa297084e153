/**
 * The import core, one for the CLI and the console: a file read once to know it (its SHA-256 is the import), then
 * streamed row by row in batches of BATCH. A dry run counts (new, already on the list, to be suppressed, refused)
 * and changes nothing. A real one adds each new person by the sign-up's own statement (sealed under DATA_KEY and
 * keyed as every sign-up), at their place in line (their sign-up date from the file, else the import's time), never
 * touching a person already listed; suppresses those the other tool says left or bounced; records every line once.
 * Killed anywhere, the same file run again goes on: what was recorded is not done twice.
 */
import { type AuditedAction, audit, auditStart } from "../audit";
import { databaseKey } from "../crypto/keys";
import { addressKeys } from "../data-key";
import { NO_OWNER } from "../jobs";
import { insertManyValues } from "../signup/store";
import { createSuppressionStore } from "../suppression";
import { partsOf, sha256 } from "./file";
import { cellsBy, type Format, recogniseFormat } from "./formats";
import { AddressesMet } from "./met";
import { type Batch, emptyBatch, place, type Reading, type Tally } from "./place";
import { type FileRecord, readRecords, UnreadableFile } from "./read";
import { report } from "./report";
import { ADD_PARAMS, IMPORT_SQL } from "./sql";
import { BATCH, type ImportOptions, ImportRefused, type ImportReport } from "./types";

/** A dry run's batch: how many would be new and how many are listed already (nothing is written). */
async function countBatch(reading: Reading, batch: Batch) {
  const { store } = reading.options;
  reading.tally.suppressed += batch.suppress.length;
  if (batch.add.length === 0) return;
  const keys = batch.add.map((row) => addressKeys(store.dataKeys, row.entry.email));
  const listed = new Set((await store.db.query<{ k: string }>(IMPORT_SQL.listed, [keys.flat()])).map((row) => row.k));
  const existing = keys.filter((each) => each.some((k) => listed.has(k))).length;
  reading.tally.existing += existing;
  reading.tally.added += batch.add.length - existing;
}

/** A real batch: suppressions (each once: the list's own statement), refusals recorded, rows added and recorded. */
async function writeBatch(reading: Reading, batch: Batch) {
  const { store } = reading.options;
  const id = reading.importId as number;
  const list = store.of(createSuppressionStore);
  for (const row of batch.suppress) {
    const evidence = `imported: ${row.reason}`.slice(0, 1000);
    await list.suppress(row.address, "imported", evidence, "import");
  }
  const others = [
    ...batch.suppress.map((row) => ({ ...row, outcome: "suppressed", reason: row.reason })),
    ...batch.refuse.map((row) => ({ ...row, outcome: "refused" })),
  ];
  if (others.length > 0) {
    await store.db.query(IMPORT_SQL.record, [
      id,
      others.map((r) => r.part),
      others.map((r) => r.line),
      others.map((r) => r.outcome),
      others.map((r) => r.reason),
    ]);
  }
  if (batch.add.length === 0) return;
  const withEvidence = batch.add.filter((row) => row.evidence !== null && reading.options.consent === "confirmed");
  const values = ADD_PARAMS.values({
    ...insertManyValues(store.dataKeys, batch.add),
    import: id,
    evidencePart: withEvidence.map((r) => r.part),
    evidenceLine: withEvidence.map((r) => r.line),
    evidenceWhat: withEvidence.map((r) => r.evidence?.what ?? null),
    evidenceAt: withEvidence.map((r) => (r.evidence?.at ?? r.createdAt).toISOString()),
  });
  await store.db.query(IMPORT_SQL.add, values);
}

type Part = Awaited<ReturnType<typeof partsOf>>[number];

/**
 * Reads one part, batch by batch; its format. One batch is written while the next is read and sealed (the database
 * and this process each on a core), never two at once: batches are written in the file's order, each whole or not
 * at all, so a rerun goes on as before; nothing is left writing when this returns or throws.
 */
async function readPart(reading: Reading, part: Part, index: number, lines: { read: number }) {
  let format: Format | null = null;
  let by: ((cells: readonly string[]) => (column: string) => string) | null = null;
  let batch = emptyBatch();
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const [full, read] = [batch, lines.read];
    batch = emptyBatch();
    await writing;
    const write = reading.options.apply ? writeBatch(reading, full) : countBatch(reading, full);
    writing = write.then(() => reading.options.onProgress?.(read));
    // A failure before the next await of it is not an unhandled rejection: that await throws it.
    writing.catch(() => {});
  };
  try {
    for await (const record of readRecords(part.chunks()) as AsyncIterable<FileRecord>) {
      if (!format || !by) {
        format = recogniseFormat(record.cells);
        if (!format) {
          throw new UnreadableFile(
            `${part.name}: no address column in its header row (line 1: ${record.cells.slice(0, 8).join(", ")}): it needs a column named email, or one tool's own export.`,
          );
        }
        by = cellsBy(record.cells);
        continue;
      }
      lines.read++;
      if (record.cells.every((cell) => cell.trim() === "")) continue;
      place(reading, batch, format, { index, name: part.name }, record.cells, record.line, by);
      if (batch.add.length + batch.suppress.length + batch.refuse.length >= BATCH) await flush();
    }
    if (!format) throw new UnreadableFile(`${part.name} is empty: it has no header row.`);
    await flush();
  } finally {
    await writing.catch(() => {});
  }
  await writing;
  return { file: part.name, format: format.label, reads: format.reads };
}

/** Reads every part in turn; the formats found. */
async function readParts(reading: Reading, parts: Part[]) {
  const formats: ImportReport["formats"] = [];
  const lines = { read: 0 };
  for (const [index, part] of parts.entries()) formats.push(await readPart(reading, part, index, lines));
  return formats;
}

/** Imports `options.file` (a dry run unless `apply`): see the top of this file. */
export async function importFile(options: ImportOptions): Promise<ImportReport> {
  const { store, file } = options;
  const now = options.now ?? new Date();
  const fileHash = await sha256(file);
  const parts = await partsOf(file);
  const database = await databaseKey(store);
  const tally: Tally = { added: 0, existing: 0, suppressed: 0, refused: 0, firstReasons: [] };
  const met = new AddressesMet();
  const reading: Reading = { options, now, importId: null, database, met, partNames: [], tally };
  const [found] = await store.db.query<Record<string, unknown>>(IMPORT_SQL.find, [fileHash]);
  if (found && (found["consent"] !== options.consent || found["source"] !== (options.source ?? "import"))) {
    throw new ImportRefused(
      `this file was imported on ${new Date(found["started_at"] as string).toISOString().slice(0, 10)} with --consent ${found["consent"]} and --source ${found["source"]}: run it again with the same options to go on. Nothing was changed.`,
    );
  }
  if (options.apply && found?.["rows_done_at"])
    return { ...(await report(store, Number(found["id"]), fileHash, [])), alreadyDone: true };
  let entry: AuditedAction | null = null;
  if (options.apply) {
    await store.checkDataKey();
    if (!found)
      entry = await auditStart(store.db, options.actor, "import", { file: file.name, consent: options.consent });
    const [row] = await store.db.query<{ id: number }>(IMPORT_SQL.start, [
      fileHash,
      file.name,
      "",
      options.consent,
      options.source ?? "import",
      options.actor,
    ]);
    reading.importId = Number(row?.id);
  }
  const formats = await readParts(reading, parts);
  if (!options.apply) {
    return { formats, fileHash, importId: null, alreadyDone: false, ...tally, unmailed: 0 };
  }
  const id = reading.importId as number;
  const described = formats.map((f) => `${f.file}: ${f.format}`).join("; ");
  const done = await store.db.query(IMPORT_SQL.rowsDone, [id, NO_OWNER, described]);
  const result = await report(store, id, fileHash, formats, tally.firstReasons);
  const counts = {
    file: file.name,
    added: result.added,
    existing: result.existing,
    suppressed: result.suppressed,
    refused: result.refused,
  };
  if (done.length > 0) {
    // A console import's start was written when it was queued: its end names that entry, as every end does.
    const started = entry?.id ?? (await store.db.query<{ id: number }>(IMPORT_SQL.queuedEntry, [String(id)]))[0]?.id;
    await audit(store.db, options.actor, "import", { phase: "ended", ...(started ? { started } : {}), ...counts });
  }
  return result;
}
