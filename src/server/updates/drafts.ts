/**
 * Drafts as the console previews them (migration 0026): kept by their words' hash (wordsTicket), so that the
 * preview's frame, a page of its own, can show the e-mail of words not sent yet without carrying them in its
 * address. The same words previewed again are the same draft; a week after its last preview a draft is deleted.
 */
import type { Db } from "../db/types";
import type { Draft } from "./rules";
import { wordsTicket } from "./start";

export const DRAFT_SQL = {
  save: `INSERT INTO waitlist_update_draft (words, subject, body) VALUES ($1, $2, $3)
    ON CONFLICT (words) DO UPDATE SET created_at = now()`,
  prune: "DELETE FROM waitlist_update_draft WHERE created_at < now() - interval '7 days'",
  read: "SELECT subject, body FROM waitlist_update_draft WHERE words = $1",
} as const;

/** A draft's key: its words' hash, 64 hex digits. */
export const isDraftKey = (key: string) => /^[0-9a-f]{64}$/.test(key);

/** Keeps `draft` for its preview; its key. */
export async function saveDraft(db: Db, draft: Draft): Promise<string> {
  const key = wordsTicket(draft);
  await db.query(DRAFT_SQL.save, [key, draft.subject, draft.body]);
  await db.query(DRAFT_SQL.prune);
  return key;
}

export async function readDraft(db: Db, key: string): Promise<Draft | null> {
  if (!isDraftKey(key)) return null;
  const [row] = await db.query<{ subject: string; body: string }>(DRAFT_SQL.read, [key]);
  return row ? { subject: row.subject, body: row.body } : null;
}
