/**
 * Sealing with DATA_KEY, as the store sees it: which rows are sealed under which key, the check that this process
 * holds every key a stored row needs (made once, before the first write), and `waitlist encrypt`'s batches.
 */
import { counted, isAre } from "../../lib/plural";
import { columnsOf, DataKeyError, type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import type { Sealing } from "./types";

export const SEALING_SQL = {
  /** How many rows are plain, and how many are sealed under each key. */
  sealing: `SELECT nullif(key_id, '') AS key_id, sum(count)::bigint AS count FROM waitlist_tally
    GROUP BY key_id HAVING sum(count) > 0`,
  /** Up to $2 rows not sealed under key $1, oldest first: what `waitlist encrypt` seals next. */
  unsealed: `SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE key_id IS DISTINCT FROM $1 ORDER BY id LIMIT $2::int`,
  /**
   * Seals a batch in one statement (all of it or none): each row only if it is still as read ($5: the key it was
   * under), so a row changed meanwhile is left for the next batch.
   */
  seal: `UPDATE waitlist w SET name = NULL, message = NULL, organization = NULL, why = NULL, connect = NULL, answers = NULL,
      email = u.email, key_id = $1, sealed = u.sealed
    FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS u(id, email, sealed, old_key)
    WHERE w.id = u.id AND w.key_id IS NOT DISTINCT FROM u.old_key
    RETURNING w.id`,
} as const;

/** How many rows are plain, and how many are sealed under each key. */
async function sealingOf(db: Db): Promise<Sealing> {
  const counts: Sealing = { plain: 0, sealed: {} };
  for (const r of await db.query<{ key_id: string | null; count: number }>(SEALING_SQL.sealing)) {
    if (r.key_id === null) counts.plain = Number(r.count);
    else counts.sealed[r.key_id] = Number(r.count);
  }
  return counts;
}

/** Throws a DataKeyError naming the first key a sealed row needs that this process does not hold. */
async function checkKeys(db: Db, dataKeys: DataKeys | null): Promise<void> {
  const { sealed } = await sealingOf(db);
  const known = [dataKeys?.current.id, dataKeys?.previous?.id];
  for (const [id, count] of Object.entries(sealed)) {
    if (known.includes(id)) continue;
    throw new DataKeyError(
      dataKeys
        ? `DATA_KEY does not open the ${counted(count, "row")} sealed under key ${id}: set the key they were sealed with (while rotating, the old one as DATA_KEY_PREVIOUS).`
        : `${counted(count, "row")} ${isAre(count)} sealed under key ${id}, but DATA_KEY is not set: set it to the key they were sealed with.`,
    );
  }
}

/** `waitlist encrypt`'s next batch: up to `limit` rows not under the current key, sealed in one statement. */
async function sealBatch(db: Db, dataKeys: DataKeys, limit: number) {
  const rows = await db.query<StoredPerson & { id: number | string }>(SEALING_SQL.unsealed, [
    dataKeys.current.id,
    limit,
  ]);
  if (rows.length === 0) return { sealed: 0, read: 0 };
  const sealed = rows.map((r) => columnsOf(dataKeys, personOf(dataKeys, r)));
  const done = await db.query(SEALING_SQL.seal, [
    dataKeys.current.id,
    rows.map((r) => Number(r.id)),
    sealed.map((c) => c.email),
    sealed.map((c) => c.sealed),
    rows.map((r) => r.key_id),
  ]);
  return { sealed: done.length, read: rows.length };
}

export function createSealing(db: Db, dataKeys: DataKeys | null) {
  const sealing = () => sealingOf(db);
  const checkDataKey = () => checkKeys(db, dataKeys);
  /**
   * After a sign-up that added nothing while rows are sealed (the statement says so): without DATA_KEY, the reason is
   * those rows, not a duplicate, and a DataKeyError says which key is missing. The caller answers it as an outage,
   * so the visitor keeps their values and tries again.
   */
  const refusedInClear = async (sealedRows: boolean | undefined) => {
    if (!dataKeys && sealedRows === true) await checkDataKey();
  };
  let checked: Promise<void> | undefined;
  /**
   * The key check, made once per store, before the first write with a key (without one, rows are written plain,
   * which any key can live with); a database that did not answer is asked again next time.
   */
  const keyChecked = () => {
    if (!dataKeys) return Promise.resolve();
    checked ??= checkDataKey().catch((error: unknown) => {
      if (!(error instanceof DataKeyError)) checked = undefined;
      throw error;
    });
    return checked;
  };
  const sealNext = async (limit: number) => {
    if (!dataKeys) throw new DataKeyError("DATA_KEY is not set: there is no key to seal with.");
    await keyChecked();
    return sealBatch(db, dataKeys, limit);
  };
  return { sealing, checkDataKey, keyChecked, refusedInClear, sealNext };
}
