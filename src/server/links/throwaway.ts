/**
 * Before a confirmation counts a referral (referrals/count.ts), a throwaway address's is settled as `disposable`,
 * with the registry's list (mail/disposable.ts). Here, in the confirmation link's own module, because only that
 * function may carry the list (350 KB zipped): the store every function opens must not import it.
 */
import type { StoredPerson } from "../data-key";
import { personOf } from "../data-key";
import { isDisposable } from "../mail/disposable";
import { DISPOSABLE_SQL } from "../referrals";
import type { Store } from "../store/types";

/** Settles the referral of the person confirm token hash `hash` would confirm, if one waits and is a throwaway's. */
export async function settleThrowawayReferral(store: Pick<Store, "db" | "dataKeys">, hash: string): Promise<void> {
  const [waiting] = await store.db.query<StoredPerson & { id: number }>(DISPOSABLE_SQL.pending, [hash]);
  if (waiting && (await isDisposable(personOf(store.dataKeys, waiting).email))) {
    await store.db.query(DISPOSABLE_SQL.mark, [waiting.id]);
  }
}
