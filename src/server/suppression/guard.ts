/**
 * The suppression list as the mail door asks it (src/server/mail/guard.ts): is this address suppressed (itself, or
 * its whole mailbox by a row of before migration 0021), this message accepted (recorded with its ids, to be found
 * again), this address refused (a bounce, recorded as every event is: record.ts). Keys are the database's own
 * secret's, as waitlist.address_key's and mailbox_key's.
 */
import type { ServerConfig } from "../config";
import { type DatabaseKey, databaseKey } from "../crypto/keys";
import type { ServerDeps } from "../deps";
import { guardedMailer, type MailGuard } from "../mail/guard";
import { addressKey, storedMailboxKey } from "../mail/mailbox";
import { type Mailer, mailerFor } from "../mail/mailer";
import type { Store } from "../store/types";
import { recordMailEvent } from "./record";
import { createSuppressionStore, type ListKeys } from "./store";

/** What a message is, for the record: an update's, or the site's one-to-one e-mails. */
const kindOf = (subject: string, update: number | undefined) =>
  update !== undefined ? "update" : subject.slice(0, 60);

/** The keys the list looks `email` up by: its own, and its mailbox's (rows of before 0021). */
export const listKeysOf = (database: DatabaseKey, email: string): ListKeys => ({
  address: addressKey(database, email),
  mailbox: storedMailboxKey(database, email),
});

export function mailGuard(
  store: Pick<Store, "db" | "secret" | "of">,
  config: Pick<ServerConfig, "reputation">,
): MailGuard {
  const list = store.of(createSuppressionStore);
  // Kept to be compared later, by any process: under the database's secret (crypto/keys.ts), as waitlist's keys.
  const keyOf = async (email: string) => listKeysOf(await databaseKey(store), email);
  return {
    async suppressed(email) {
      return list.isSuppressed(await keyOf(email));
    },
    async accepted(email, message, ids) {
      const key = await keyOf(email);
      await list.sent(
        ids.messageId,
        ids.providerId,
        key,
        kindOf(message.subject, message.update),
        message.update ?? null,
      );
    },
    async bounced(email, message, bounce) {
      const key = await keyOf(email);
      // The message was never accepted, so it is recorded here for the update's counts to find.
      const messageId = message.messageId ?? "";
      await list.sent(messageId, null, key, kindOf(message.subject, message.update), message.update ?? null);
      await recordMailEvent(
        { db: store.db, database: await databaseKey(store), config },
        {
          provider: "smtp",
          // One per message: an update's three tries of one greylisted address are one soft bounce, not three.
          eventId: `${messageId} ${bounce.kind}`,
          kind: bounce.kind,
          messageIds: [messageId],
          email,
          evidence: bounce.answer,
        },
      );
    },
  };
}

/**
 * The mailer every sender uses: `mailer` (SMTP_URL's, or a test's) behind the suppression list of the store
 * `open` gives (opened when the first e-mail goes, so a handler that sends nothing opens nothing).
 */
type MailConfig = Pick<ServerConfig, "reputation" | "siteUrl" | "mail">;
type Opened = () => Promise<Pick<Store, "db" | "secret" | "of">>;
export function suppressedMailer(mailer: Mailer, config: MailConfig, open: Opened): Mailer;
export function suppressedMailer(mailer: Mailer | null, config: MailConfig, open: Opened): Mailer | null;
export function suppressedMailer(mailer: Mailer | null, config: MailConfig, open: Opened): Mailer | null {
  let guard: Promise<MailGuard> | undefined;
  const host = (config.mail?.from.split("@").pop() ?? new URL(config.siteUrl ?? "http://localhost").hostname)
    .replace(/[>\s]/g, "")
    .toLowerCase();
  return guardedMailer(mailer, () => (guard ??= open().then((store) => mailGuard(store, config))), host || "localhost");
}

/** `deps` whose mailer is behind the suppression list (for a floor's flow that takes the deps: mail/address-request). */
export const guardedDeps = <D extends ServerDeps>(deps: D): D => ({
  ...deps,
  mailer: (config: ServerConfig) => suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store),
});
