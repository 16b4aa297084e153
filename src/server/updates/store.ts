/**
 * Updates' store: the statements of sql.ts run and their rows made into what the console, the CLI and the sender
 * use. Every statement stands alone; what keeps two senders apart is the update's owner (sql.ts says how).
 */
import { type DataKeys, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import type { StatusLink } from "../store/referral-types";
import { UPDATE_SQL } from "./sql";

export type UpdateRow = {
  id: number;
  subject: string;
  body: string;
  owner: string | null;
  finished: boolean;
  stale: boolean | null;
  sent: number;
  failed: number;
  recipients: number;
  remaining: number;
};

export interface PastUpdate {
  id: number;
  subject: string;
  createdAt: string;
  finished: boolean;
  owner: string | null;
  sent: number;
  failed: number;
  remaining: number;
  unsubscribed: number;
}

export type Fate = "sent" | "failed" | "skipped";

const n = (value: unknown) => Number(value ?? 0);

/**
 * Whom an update goes to when not everyone who said yes: a segment (a People filter, in the words its address
 * writes, which tells its updates apart: start.ts) and the people it matched when it was started.
 */
export interface Audience {
  segment: string;
  people: readonly number[];
}

type CreatedRow = { id: number | null; recipients: number; existing: number | null };

/** A created update's id and recipients, or the first one of its ticket when that already existed. */
const created = (row: CreatedRow | undefined) =>
  row?.id != null
    ? { id: n(row.id), recipients: n(row.recipients), created: true }
    : { id: n(row?.existing), recipients: 0, created: false };

/** Starting an update: its audience, the update itself (once per ticket), and the same words found again. */
function creation(db: Db) {
  return {
    async audience(): Promise<number> {
      return n((await db.query<{ audience: number }>(UPDATE_SQL.audience))[0]?.audience);
    },
    /** A new update to everyone in the audience now: its id and how many, or the first one of this ticket. */
    async create(
      subject: string,
      body: string,
      author: string,
      ticket: string | null,
      audience: Audience | null = null,
    ) {
      const params = [subject, body, author, ticket, audience?.segment ?? null, audience?.people ?? null];
      return created((await db.query<CreatedRow>(UPDATE_SQL.create, params))[0]);
    },
    /** How many in the audience now have not received an update with these words. */
    async againAudience(subject: string, body: string, audience: Audience | null = null): Promise<number> {
      const params = [subject, body, audience?.people ?? null];
      return n((await db.query<{ audience: number }>(UPDATE_SQL.againAudience, params))[0]?.audience);
    },
    /** The same words again, to those who have not received them; the first one of this ticket when it exists. */
    async createAgain(subject: string, body: string, author: string, ticket: string, audience: Audience | null = null) {
      const params = [subject, body, author, ticket, audience?.segment ?? null, audience?.people ?? null];
      return created((await db.query<CreatedRow>(UPDATE_SQL.createAgain, params))[0]);
    },
    async byTicket(ticket: string): Promise<number | null> {
      const [row] = await db.query<{ id: number }>(UPDATE_SQL.byTicket, [ticket]);
      return row ? n(row.id) : null;
    },
    async same(subject: string, body: string, segment: string | null = null) {
      const [row] = await db.query<{ id: number; finished: boolean; created_at: unknown; sent: number }>(
        UPDATE_SQL.same,
        [subject, body, segment],
      );
      return row
        ? { id: n(row.id), finished: row.finished, createdAt: new Date(row.created_at as string), sent: n(row.sent) }
        : null;
    },
  };
}

/** Reading updates: one by id with its counts, and the past ones for the console. */
function reads(db: Db) {
  return {
    async get(id: number, staleSeconds: number): Promise<UpdateRow | null> {
      const [row] = await db.query<UpdateRow>(UPDATE_SQL.get, [id, staleSeconds]);
      return row
        ? {
            ...row,
            id: n(row.id),
            sent: n(row.sent),
            failed: n(row.failed),
            recipients: n(row.recipients),
            remaining: n(row.remaining),
          }
        : null;
    },
    async list(limit: number): Promise<PastUpdate[]> {
      const rows = await db.query<Omit<PastUpdate, "createdAt"> & { created_at: unknown }>(UPDATE_SQL.list, [limit]);
      return rows.map((r) => ({
        id: n(r.id),
        subject: r.subject,
        createdAt: new Date(r.created_at as string).toISOString(),
        finished: r.finished,
        owner: r.owner,
        sent: n(r.sent),
        failed: n(r.failed),
        remaining: n(r.remaining),
        unsubscribed: n(r.unsubscribed),
      }));
    },
  };
}

/** Sending: the next recipients, and each one's fate, recorded only while run `owner` holds the update. */
function sending(db: Db, dataKeys: DataKeys | null) {
  return {
    /** The next `limit` recipients still to be dealt with, fewest tries first, but those in `except`. */
    async next(id: number, limit: number, except: readonly number[] = []) {
      const rows = await db.query<StoredPerson & { id: number; state: string; still: boolean }>(UPDATE_SQL.next, [
        id,
        limit,
        except,
      ]);
      return rows.map((row) => ({
        id: n(row.id),
        email: personOf(dataKeys, row).email,
        still: row.still,
        inDoubt: row.state === "attempted",
      }));
    },
    /** Recipient `person` is being sent it by run `owner`; false: not theirs to send (stopped, left, or taken). */
    async attempted(id: number, person: number, owner: string): Promise<boolean> {
      return (await db.query(UPDATE_SQL.attempted, [id, person, owner])).length === 1;
    },
    /** Their tries now; null when run `owner` no longer holds the update (nothing changed). */
    async requeue(id: number, person: number, owner: string, tries: 0 | 1): Promise<number | null> {
      const [row] = await db.query<{ tries: number }>(UPDATE_SQL.requeue, [id, person, owner, tries]);
      return row ? n(row.tries) : null;
    },
    /** False when run `owner` no longer holds the update: nothing was recorded. */
    async done(id: number, person: number, fate: Fate, error: string | null, owner: string): Promise<boolean> {
      return (await db.query(UPDATE_SQL.done, [id, person, fate, error, owner])).length === 1;
    },
  };
}

/** A person's choices: yes or no by status link, unsubscribe and back by an update's link, leaving the list. */
function choices(db: Db) {
  return {
    /** A person's choice by their status link: a stored one (its hash) or an update's (its person). */
    async choose(link: StatusLink, yes: boolean, words: string): Promise<boolean> {
      const [sql, key] = "person" in link ? [UPDATE_SQL.chooseById, link.person] : [UPDATE_SQL.choose, link.hash];
      return (await db.query(sql, [key, yes, words])).length === 1;
    },
    async unsubscribe(update: number, person: number, words: string): Promise<boolean> {
      return (await db.query(UPDATE_SQL.unsubscribe, [update, person, words])).length === 1;
    },
    /** Person `person`'s choice about updates (null: never asked), or undefined when they are not on the list. */
    async consentOf(person: number): Promise<boolean | null | undefined> {
      const [row] = await db.query<{ updates_consent: boolean | null }>(UPDATE_SQL.consent, [person]);
      return row ? row.updates_consent : undefined;
    },
    async resubscribe(update: number, person: number, words: string): Promise<boolean> {
      return (await db.query(UPDATE_SQL.resubscribe, [update, person, words])).length === 1;
    },
    async leave(update: number, person: number): Promise<boolean> {
      return (await db.query(UPDATE_SQL.leave, [update, person])).length === 1;
    },
  };
}

/** The store, by concern; `db` too, for the long-job core's lease (jobs/), which every update's run holds. */
export function createUpdateStore(db: Db, dataKeys: DataKeys | null) {
  return { db, ...creation(db), ...reads(db), ...sending(db, dataKeys), ...choices(db) };
}

export type UpdateStore = ReturnType<typeof createUpdateStore>;
