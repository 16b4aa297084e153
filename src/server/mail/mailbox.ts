/**
 * Whose inbox an address reaches: plus-addressing (`victim+1@example.com`) and case make many addresses of one
 * mailbox, so e-mails are counted per mailbox, under a keyed hash (no address is stored for it). What mail that
 * came back suppresses is the address itself (addressKey): anyone may sign up `ceo+zz@corp.test` at a server that
 * refuses it, and that must not silence `ceo@corp.test`.
 */
import { createHmac } from "node:crypto";
import type { DatabaseKey } from "../crypto/keys";
import { derivedHmacKey, type RootKey } from "../crypto/secret";

/** Domains whose mailboxes ignore dots in the local part, and are one domain: Gmail's. */
const GMAIL = new Set(["gmail.com", "googlemail.com"]);

/**
 * The address without its `+tag`, case-folded: `Victim+News@Example.com` → `victim@example.com`; for Gmail,
 * without dots and under one domain too: `J.Doe+x@googlemail.com` → `jdoe@gmail.com`. Also what makes two sign-ups
 * one person for referrals (src/server/referrals/).
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1).toLowerCase();
  const local = (email.slice(0, at).split("+")[0] ?? "").toLowerCase();
  return GMAIL.has(domain) ? `${local.replaceAll(".", "")}@gmail.com` : `${local}@${domain}`;
}

/** The key the mailbox's e-mails are counted under. */
export function mailboxKey(root: RootKey, email: string): string {
  return createHmac("sha256", derivedHmacKey(root, "mailbox")).update(mailboxOf(email)).digest("base64url");
}

/**
 * The key of the exact address, case-folded only (no `+tag`, no dots dropped): what a bounce or a complaint
 * suppresses (src/server/suppression/), and waitlist.address_key under the database's secret.
 */
export function addressKey(root: RootKey, email: string): string {
  return createHmac("sha256", derivedHmacKey(root, "address")).update(email.trim().toLowerCase()).digest("base64url");
}

/**
 * A row's mailbox key (waitlist.mailbox_key): under the database's secret, so every row's compares with every
 * other's, whether the sign-up, the scheduled keying of old rows (referrals/mailbox-keys.ts) or another process
 * wrote it. SERVER_SECRET would key rows written by two processes differently.
 */
export const storedMailboxKey = (database: DatabaseKey, email: string): string => mailboxKey(database, email);

/**
 * The key an e-mail is counted under against its mailbox's day (mail/send.ts): under the server's root
 * (rootKey: SERVER_SECRET, else the database's), like every other counter; a count lives a day.
 */
export const countedMailboxKey = (root: RootKey, email: string): string => mailboxKey(root, email);
