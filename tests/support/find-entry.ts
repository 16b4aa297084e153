import type { Store } from "../../src/server/app/store";
import { addressKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../../src/server/data-key";
import type { WaitlistEntry } from "../../src/server/entry";

/**
 * The stored entry of an address (any case), read with SQL on the store's own connection and opened with the
 * store's key when sealed: what tests check a sign-up against. Not part of the store, which the product never
 * asks for one address.
 */
export async function findEntry(store: Store, email: string): Promise<WaitlistEntry | null> {
  const [row] = await store.db.query<StoredPerson>(
    `SELECT ${PERSON_COLUMNS} FROM waitlist WHERE lower(email) = ANY($1::text[])`,
    [addressKeys(store.dataKeys, email)],
  );
  if (!row) return null;
  const { name, email: address, message } = personOf(store.dataKeys, row);
  return { name, email: address, message };
}
