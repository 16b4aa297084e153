/**
 * A file uploaded in the console, between its dry run and its import (migration 0023: waitlist_import_upload).
 * Netlify's functions share no disk, so the bytes live in the database, keyed by their SHA-256 (the import's own
 * key), at most one request's payload (UPLOAD_LIMIT), and are deleted once every line is read and recorded.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/types";
import type { Store } from "../store/types";
import { importFile } from "./run";
import { IMPORT_SQL } from "./sql";
import type { ImportFile } from "./types";

/** What one Netlify request carries: a larger file goes through the CLI. */
export const UPLOAD_LIMIT = 6 * 1024 * 1024;

export const UPLOAD_SQL = {
  /** Keeps upload `$1` (hash), name `$2`, bytes `$3` (as hex: every driver sends text alike), by `$4`; the same file again keeps its first row. */
  keep: `INSERT INTO waitlist_import_upload (file_hash, file_name, bytes, uploaded_by) VALUES ($1, $2, decode($3, 'hex'), $4)
    ON CONFLICT (file_hash) DO NOTHING`,
  /** Upload `$1`'s name and bytes. */
  get: "SELECT file_name, encode(bytes, 'hex') AS hex FROM waitlist_import_upload WHERE file_hash = $1",
  /** Upload `$1` is no longer needed. */
  drop: "DELETE FROM waitlist_import_upload WHERE file_hash = $1",
} as const;

export const hashOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The bytes as a file the import core reads (it opens a file more than once). */
export function fileOfBytes(name: string, bytes: Uint8Array): ImportFile {
  return {
    name,
    open: async function* () {
      yield bytes;
    },
  };
}

/** Keeps an upload; its hash. */
export async function keepUpload(db: Db, name: string, bytes: Uint8Array, by: string): Promise<string> {
  const hash = hashOf(bytes);
  await db.query(UPLOAD_SQL.keep, [hash, name, Buffer.from(bytes).toString("hex"), by]);
  return hash;
}

/** Upload `hash` as a file, or null when it is gone (imported, or never uploaded). */
export async function uploadedFile(db: Db, hash: string): Promise<ImportFile | null> {
  const [row] = await db.query<{ file_name: string; hex: string }>(UPLOAD_SQL.get, [hash]);
  if (!row) return null;
  return fileOfBytes(row.file_name, Buffer.from(row.hex, "hex"));
}

export const dropUpload = (db: Db, hash: string) => db.query(UPLOAD_SQL.drop, [hash]);

/**
 * Reads and records every line of import `id` from its upload (a background run holds its lease meanwhile): the
 * core's own real run, so a run killed halfway is gone on by the next. The upload is deleted once all is read.
 * "read": every line is recorded; "gone": its upload is not here (nothing can be read).
 */
export async function importUploaded(store: Store, id: number): Promise<"read" | "gone"> {
  const [row] = await store.db.query<Record<string, string | null>>(IMPORT_SQL.byId, [id]);
  if (!row) return "gone";
  const hash = String(row["file_hash"]);
  if (row["rows_done_at"] !== null) {
    await dropUpload(store.db, hash);
    return "read";
  }
  const file = await uploadedFile(store.db, hash);
  if (!file) return "gone";
  await importFile({
    store,
    file,
    consent: row["consent"] === "confirmed" ? "confirmed" : "ask",
    source: row["source"] ?? null,
    apply: true,
    actor: String(row["actor"]),
  });
  await dropUpload(store.db, hash);
  return "read";
}
