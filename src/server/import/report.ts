/** What an import did, read back from its recorded lines: the counts the CLI prints and the console shows. */
import type { Store } from "../store/types";
import { IMPORT_SQL } from "./sql";
import type { ImportReport, Refusal } from "./types";

export async function report(
  store: Store,
  id: number,
  fileHash: string,
  formats: ImportReport["formats"],
  firstReasons: Refusal[] = [],
): Promise<ImportReport> {
  const [row] = await store.db.query<Record<string, number>>(IMPORT_SQL.counts, [id]);
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    formats,
    fileHash,
    importId: id,
    alreadyDone: false,
    added: n("added"),
    existing: n("existing"),
    suppressed: n("suppressed"),
    refused: n("refused"),
    firstReasons,
    unmailed: n("unmailed"),
  };
}
