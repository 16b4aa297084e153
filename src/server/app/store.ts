/**
 * The store every handler is given: one object built from each feature's own SQL (signup/store.ts,
 * console/store.ts, export/store.ts, links/consent-store.ts and purge-store.ts, invitations/invite-store.ts,
 * referrals/store.ts) and the
 * floors' (store/allowance.ts, store/sealing.ts, store/server-secret.ts). Each statement lives with the feature that runs it; this only
 * puts them together, over one database and one set of keys. Above the features: only the process's wiring
 * (instance.ts) and the tests build one.
 */
import { createConsoleStore } from "../console/store";
import type { DataKeys } from "../data-key";
import type { Db } from "../db/types";
import { createExportStore } from "../export/store";
import { createInviteStore } from "../invitations/invite-store";
import { createConsentStore } from "../links/consent-store";
import { createPurgeStore } from "../links/purge-store";
import { createReferralStore } from "../referrals/store";
import { createSignupStore } from "../signup/store";
import { createAllowance } from "../store/allowance";
import { createLine } from "../store/line";
import { createSealing } from "../store/sealing";
import { createSecretReader } from "../store/server-secret";
import type { Store, StoreFactory } from "../store/types";

export * from "../store/types";

export function createStore(db: Db, dataKeys: DataKeys | null = null): Store {
  const sealing = createSealing(db, dataKeys);
  const made = new Map<StoreFactory<unknown>, unknown>();
  return {
    of<T>(make: StoreFactory<T>): T {
      if (!made.has(make)) made.set(make, make(db, dataKeys));
      return made.get(make) as T;
    },
    db,
    dataKeys,
    line: (places) => createLine(db, places),
    consent: createConsentStore(db, dataKeys),
    invites: createInviteStore(db, dataKeys),
    referrals: createReferralStore(db, dataKeys),
    ...createSignupStore(db, dataKeys, sealing),
    ...createConsoleStore(db, dataKeys),
    ...createExportStore(db, dataKeys),
    ...createPurgeStore(db),
    ...createAllowance(db),
    sealing: sealing.sealing,
    checkDataKey: sealing.checkDataKey,
    sealNext: sealing.sealNext,
    ...createSecretReader(db),
    close: () => db.close(),
  };
}
