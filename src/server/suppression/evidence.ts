/**
 * Evidence that names nobody: an SMTP answer (`550 5.1.1 <alice+x@corp.test>: Recipient address rejected`) or a
 * provider's words often quote the address, and mail_suppression, mail_event and mail_soft_bounce are not sealed
 * under DATA_KEY. The address is replaced by a placeholder rather than the evidence sealed: what the team needs from
 * it is the code and the server's words, the person page already names whom it is about, and a placeholder keeps
 * it readable wherever the list is read (a process without DATA_KEY, the CLI, a copy), with no key to rotate.
 */

/** What stands where an address was. */
export const RECIPIENT = "<recipient>";

/** Anything shaped like an address (no spaces, brackets, quotes or separators around the @). Migration 0021 uses the same. */
const ANY_ADDRESS = /<?[^\s<>()",;:]+@[^\s<>()",;:]+>?/g;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with every address in it (and the <> around it), and the local part of `email` (the address the event is
 * about) on its own, as a whole word, as RECIPIENT: a server may quote `alice.sealed+leak` without its domain. A
 * local part that is one plain word (`full`, `info`) or shorter than three characters is left alone on its own:
 * replacing it would take the server's words with it ("452 4.2.2 mailbox full"), and a whole address is always
 * replaced.
 */
export function redactEvidence(text: string, email: string | null): string {
  const local = email?.slice(0, email.lastIndexOf("@")) ?? "";
  const parts = [local, local.split("+")[0] ?? ""].filter((part) => part.length >= 3 && /[^a-z]/i.test(part));
  // Longest first, so `alice+x` goes whole before `alice`; the placeholders already put are never searched again.
  // Whole words only: `bounce@` must not turn "email.bounced" into nonsense.
  const named =
    parts.length > 0 ? new RegExp(`(?<![\\w.%+-])(?:${parts.map(escaped).join("|")})(?![\\w.%+-])`, "gi") : null;
  return text
    .replace(ANY_ADDRESS, RECIPIENT)
    .split(RECIPIENT)
    .map((piece) => (named ? piece.replace(named, RECIPIENT) : piece))
    .join(RECIPIENT);
}
