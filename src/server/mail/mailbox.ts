/**
 * Whose inbox an address reaches: plus-addressing (`victim+1@example.com`) and case make many addresses of one
 * mailbox, so e-mails are counted per mailbox, under a keyed hash (no address is stored for it).
 */
import { createHmac } from "node:crypto";
import { derivedKey, type RootKey } from "../secret";

/** The address without its `+tag`, case-folded: `Victim+News@Example.com` → `victim@example.com`. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at).split("+")[0] ?? "";
  return `${local}@${email.slice(at + 1)}`.toLowerCase();
}

/** The key the mailbox's e-mails are counted under. */
export function mailboxKey(root: RootKey, email: string): string {
  return createHmac("sha256", derivedKey(root, "mailbox")).update(mailboxOf(email)).digest("base64url");
}
