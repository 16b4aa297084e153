/**
 * Starting an update: one rule for the console and the CLI, decided here. The words are the update: a subject and
 * text already started (finished or not) is THAT update, never a new one — two tabs, a confirmation page submitted
 * twice, the CLI run again, all find it (its progress, or that it is sent). Its ticket is the words' digest, so two
 * starts at the same instant make one update (the ticket is unique). Sending the same words again is a separate,
 * explicit choice (`sendAgain`), offered only once the update is finished, and it reaches only the people who have
 * not received those words (failed, skipped, joined the audience since); its ticket names the update it follows,
 * so that choice, made twice, makes one.
 */
import { createHash } from "node:crypto";
import type { Draft } from "./rules";
import type { Audience, UpdateStore } from "./store";

export interface StartedUpdate {
  id: number;
  /** False: these words were already started (`since`, finished or not), and nothing new was made. */
  created: boolean;
  finished: boolean;
  since: Date | null;
  /** Messages accepted so far (0 for a new update). */
  sent: number;
}

/**
 * The unique ticket of the words themselves (older console updates carry a random one: `same` finds those), and of
 * the segment they go to: the same words to another segment are another update.
 */
export const wordsTicket = (draft: Draft, segment: string | null = null) =>
  createHash("sha256")
    .update(`${draft.subject}\n${draft.body}${segment === null ? "" : `\n${segment}`}`)
    .digest("hex");

/** The update these words already are, if any: the latest with the same subject and text, to the same segment. */
export async function findSameUpdate(
  updates: UpdateStore,
  draft: Draft,
  audience: Audience | null = null,
): Promise<StartedUpdate | null> {
  const same = await updates.same(draft.subject, draft.body, audience?.segment ?? null);
  return same ? { id: same.id, created: false, finished: same.finished, since: same.createdAt, sent: same.sent } : null;
}

/** The update for these words: the one already started, else a new one to everyone in the audience now. */
export async function startUpdate(
  updates: UpdateStore,
  draft: Draft,
  author: string,
  audience: Audience | null = null,
): Promise<StartedUpdate> {
  const same = await findSameUpdate(updates, draft, audience);
  if (same) return same;
  const ticket = wordsTicket(draft, audience?.segment ?? null);
  const made = await updates.create(draft.subject, draft.body, author, ticket, audience);
  if (made.created) return { id: made.id, created: true, finished: false, since: null, sent: 0 };
  // Another start of the same words won the ticket between our look and our insert: that one is this update.
  return (
    (await findSameUpdate(updates, draft, audience)) ?? {
      id: made.id,
      created: false,
      finished: false,
      since: null,
      sent: 0,
    }
  );
}

/**
 * The same words again after update `after` finished, to those who have not received them: the update this makes
 * (or made already: a double click, two tabs). Null when `after` is not the latest update of these words, or not
 * finished (a stale page), or when nobody is left to receive them (nothing is made).
 */
export async function sendAgain(
  updates: UpdateStore,
  draft: Draft,
  author: string,
  after: number,
  audience: Audience | null = null,
): Promise<{ id: number; created: boolean } | null> {
  const ticket = `${wordsTicket(draft, audience?.segment ?? null)}:again:${after}`;
  const made = await updates.byTicket(ticket);
  if (made !== null) return { id: made, created: false };
  const same = await findSameUpdate(updates, draft, audience);
  if (!same || same.id !== after || !same.finished) return null;
  if ((await updates.againAudience(draft.subject, draft.body, audience)) === 0) return null;
  const again = await updates.createAgain(draft.subject, draft.body, author, ticket, audience);
  if (again.created) return { id: again.id, created: true };
  // Another request made it at the same instant: its insert committed after this statement's snapshot was taken,
  // so only a new look finds it (none: it was rolled back, and this page is stale).
  const other = await updates.byTicket(ticket);
  return other === null ? null : { id: other, created: false };
}
