/**
 * The scheduled mailbox keys (netlify/functions/mailbox-keys.ts) as Netlify runs it, on the process's store: the
 * rows listed before referrals get the key a sign-up of the same mailbox would be given, whatever SERVER_SECRET
 * says, and a row it cannot open holds up none after it.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import keyMailboxes, { config as schedule } from "../../../netlify/functions/mailbox-keys";
import { getStore } from "../../../src/server/app/instance";
import { resetConfig } from "../../../src/server/config";
import { databaseKey } from "../../../src/server/crypto/keys";
import { mailboxKey } from "../../../src/server/mail/mailbox";
import { releaseEmbeddedStore, useEmbeddedStore } from "../../support/helpers";

beforeAll(async () => {
  // A secret of the team's choosing for the allowance and links: never the key of what the rows keep.
  vi.stubEnv("SERVER_SECRET", "a-team-chosen-secret-of-at-least-32-characters");
  await useEmbeddedStore("mailbox-keys-", 10);
  resetConfig();
  const store = await getStore();
  await store.add({ name: null, email: "old.timer@gmail.com", message: null }, "confirmed");
  // Sealed under a key this process does not have (DATA_KEY rotated away): it cannot be opened.
  await store.db.query(
    "INSERT INTO waitlist (email, key_id, sealed, status) VALUES ('hmac:gone', 'k-gone', 'x', 'confirmed')",
  );
  // Listed after it (by SQL: the store refuses a plain row beside a sealed one it cannot open).
  await store.db.query("INSERT INTO waitlist (email, status) VALUES ('Later.Person+news@example.com', 'pending')");
  await store.db.query("UPDATE waitlist SET mailbox_key = NULL");
}, 60_000);
afterAll(releaseEmbeddedStore);

it("runs every ten minutes and keys every row it can open, as a sign-up of that mailbox would be keyed", async () => {
  expect(schedule.schedule).toBe("*/10 * * * *");
  expect((await keyMailboxes()).status).toBe(204);
  const store = await getStore();
  const root = await databaseKey(store);
  const rows = await store.db.query<{ email: string; mailbox_key: string | null }>(
    "SELECT email, mailbox_key FROM waitlist ORDER BY id",
  );
  expect(rows).toEqual([
    { email: "old.timer@gmail.com", mailbox_key: mailboxKey(root, "OldTimer+ann@googlemail.com") },
    { email: "hmac:gone", mailbox_key: null },
    { email: "Later.Person+news@example.com", mailbox_key: mailboxKey(root, "later.person@example.com") },
  ]);
});
