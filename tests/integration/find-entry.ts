import type { WaitlistEntry } from "../../src/server/entry";
import type { Store } from "../../src/server/store";

/**
 * The stored entry of an address (any case), read with SQL on the store's own connection: what tests check a
 * sign-up against. Not part of the store, which the product never asks for one address.
 */
export async function findEntry(store: Store, email: string): Promise<WaitlistEntry | null> {
  const [row] = await store.db.query<{ name: string | null; email: string; message: string | null }>(
    "SELECT name, email, message FROM waitlist WHERE lower(email) = lower($1)",
    [email],
  );
  return row ?? null;
}
