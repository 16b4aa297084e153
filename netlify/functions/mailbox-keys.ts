/**
 * Every ten minutes: gives the rows signed up before referrals existed their mailbox key (src/server/referrals/
 * mailbox-keys.ts), within 20 of a scheduled function's 30 s. Once every row has one, a run is one index probe.
 */
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { databaseKey } from "../../src/server/crypto/keys";
import { describeError, log } from "../../src/server/log";
import { keyMailboxes } from "../../src/server/referrals/mailbox-keys";

/** The run's share of a scheduled function's 30 s: a batch started before it ends well within the rest. */
const RUN_MS = 20_000;

export default configured(async (): Promise<Response> => {
  const started = Date.now();
  try {
    const store = await getStore();
    // The database's own secret, as the sign-up keys its rows with (never SERVER_SECRET): the keys must match.
    const root = await databaseKey(store);
    const run = await keyMailboxes({ db: store.db, dataKeys: store.dataKeys, root, deadline: started + RUN_MS });
    if (run.keyed > 0 || run.unreadable > 0)
      log(run.unreadable > 0 ? "warn" : "info", "referrals.mailboxes_keyed", { ...run });
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "referrals.mailbox_keys_failed", describeError(error));
    return new Response(null, { status: 503 });
  }
});

export const config: Config = { schedule: "*/10 * * * *" };
