/**
 * Which secret keys what, named once, because the choice is deliberate and one "simplification" would break it.
 * There are two secrets. The database's own (migration 0005): random, made once, the same for every process and
 * every spelling of DATABASE_URL, readable by nobody outside the database, but copied with it (a backup, a deploy
 * preview's branch). And the server's (secret.ts): SERVER_SECRET, set by the deployer outside the database; a
 * process may have SERVER_SECRET and another (the CLI on a laptop) not, and it may be changed.
 *
 * - What is kept in the database to be compared later, or handed out by one process to be checked by another, is
 *   keyed by the database's secret, always: a row's mailbox key (one mailbox counts once for referrals, whichever
 *   process wrote the row) and an update's unsubscribe tokens, status links and Message-IDs (made by the CLI,
 *   checked by the site).
 * - What is counted and forgotten (a network's requests, a mailbox's e-mails a day), or checked by the same
 *   deployment soon after (a proof of work, a console download's part link, admins' keyed hashes without DATA_KEY),
 *   is keyed by the server's root (rootKey): SERVER_SECRET when set, else the database's.
 * - What would let whoever holds a copy of the database act as the site (a status page's invite code, which creates
 *   someone's account; a background job's start) is keyed by SERVER_SECRET alone (serverRoot), never the database's:
 *   without SERVER_SECRET there is no such code, and a job start is signed by a key this process made at random.
 *
 * The database's secret is typed apart (DatabaseKey), so a function that must have it cannot be handed the root.
 * The two mailbox keys (stored and counted) are mail/mailbox.ts's, by these rules.
 */

import { randomBytes } from "node:crypto";
import type { ServerConfig } from "../config";
import type { Store } from "../store/types";
import type { RootKey } from "./secret";
import { rootKey, serverRoot } from "./secret";

export { rootKey, serverRoot };

/** The database's own secret, as a key: only what must be comparable across processes and time takes it. */
export type DatabaseKey = RootKey & { readonly __database: unique symbol };

/** The database's secret (read once per store). */
export const databaseKey = async (store: Pick<Store, "secret">): Promise<DatabaseKey> =>
  (await store.secret()) as DatabaseKey;

/**
 * The key of every update's unsubscribe tokens and Message-IDs (updates/message.ts) and of the status link it
 * carries (updates/status-token.ts): the database's secret, never SERVER_SECRET, so a link the CLI made in a
 * process without it works on the site, and a message sent again is the same message. Derived, never stored: the
 * secrets the site hands out that tokens.ts does not make.
 */
export const updatesKey = (store: Pick<Store, "secret">): Promise<DatabaseKey> => databaseKey(store);

/**
 * The key of the invite code an invited person's status page links (invitations/access-code.ts): SERVER_SECRET
 * alone, never the database's. The page and the redemption are both the site's, so they agree; a copy of the
 * database (a backup, a preview's branch) holds the database's secret and every row's id and expiry, and must not be
 * able to make a code that creates someone's account. Null without SERVER_SECRET: the page offers no code, and
 * redemption takes only the e-mailed ones (random, kept as hashes).
 */
export const accessCodeKey = (config: ServerConfig): RootKey | null => serverRoot(config);

/** Made once per process, never stored or sent: the job starts' key when SERVER_SECRET is not set. */
const processKey = randomBytes(32) as RootKey;

/**
 * The key a background job's start is signed with (jobs/signed.ts): SERVER_SECRET, never the database's (a start
 * signed by a copy's secret would run the site's own jobs). Without SERVER_SECRET, a key this process made at random:
 * where one process both starts and runs jobs (npm start, the tests) they run as before; a deployed site's functions
 * are separate processes, so their starts are refused (401, `jobs.start_refused` naming SERVER_SECRET) and the jobs
 * wait until it is set.
 */
export const jobStartKey = (config: ServerConfig): RootKey => serverRoot(config) ?? processKey;
