/**
 * Which secret keys what (src/server/crypto/keys.ts), with SERVER_SECRET set, on each backend: a sign-up's row
 * keeps its mailbox key under the database's secret, while its confirmation e-mail is counted against the
 * mailbox's day under SERVER_SECRET; the updates' key is the database's. Either swapped, this fails.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseKey, rootKey, updatesKey } from "../../../src/server/crypto/keys";
import { countedMailboxKey, storedMailboxKey } from "../../../src/server/mail/mailbox";
import { backends } from "../../support/backends";
import { consentHarness, mailConfig } from "../../support/consent-harness";

const CHOSEN = "a-secret-the-deployer-chose-of-32-characters-or-more";
/** The mailbox key as mail/mailbox.ts computes it, written out here: HMAC(HMAC(secret, "mailbox"), mailbox). */
const keyed = (secret: Buffer, mailbox: string) =>
  createHmac("sha256", createHmac("sha256", secret).update("mailbox").digest()).update(mailbox).digest("base64url");

describe.each(backends("keys"))("on %s", (_name, available, open) => {
  const { state, signUp } = consentHarness(available, open);

  it.skipIf(!available)("the row's key is the database's; the mail counter's is SERVER_SECRET's", async () => {
    state.config = mailConfig(state.smtp.url, { SERVER_SECRET: CHOSEN });
    const database = await state.store.secret();
    expect(database.equals(Buffer.from(CHOSEN))).toBe(false);

    expect((await signUp("Kim.Lee+news@Example.com")).status).toBe(201);
    await state.smtp.waitFor("Kim.Lee+news@Example.com");

    const [row] = await state.store.db.query<{ mailbox_key: string }>(
      "SELECT mailbox_key FROM waitlist WHERE mailbox_key IS NOT NULL",
    );
    expect(row?.mailbox_key).toBe(keyed(database, "kim.lee@example.com"));
    const counted = await state.store.db.query<{ mailbox_key: string; sent: number }>(
      "SELECT mailbox_key, sent FROM waitlist_mailbox_day",
    );
    expect(counted).toEqual([{ mailbox_key: keyed(Buffer.from(CHOSEN), "kim.lee@example.com"), sent: 1 }]);

    // The module's own functions say the same.
    const root = await rootKey(state.config, state.store);
    expect(storedMailboxKey(await databaseKey(state.store), "kim.lee@example.com")).toBe(row?.mailbox_key);
    expect(countedMailboxKey(root, "kim.lee@example.com")).toBe(counted[0]?.mailbox_key);
    expect((await updatesKey(state.store)).equals(database)).toBe(true);
    // @ts-expect-error: a row's key takes the database's secret only, never the server's root (a type error).
    storedMailboxKey(root, "kim.lee@example.com");
  });
});
