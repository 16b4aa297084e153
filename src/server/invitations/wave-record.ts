/**
 * What a wave from the console did, on its own row (migration 0010), so that everything the console says about a
 * wave comes from the database, never from a query string or a form:
 * - a preview carries a one-time ticket; confirming it claims the wave's row by that ticket, so a second
 *   confirmation of the same preview (a double click, two tabs) finds that wave instead of starting another;
 * - each request that sends part of a wave adds its counts to the row; the dashboard reads them by the wave's id;
 * - with mail off, the row keeps who is in the wave's CSV, and whether the console still offers that file again.
 * And who a preview names: the first people in line (store/line.ts), with when they signed up and from where.
 */

import { type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import { createLine } from "../store/line";
import { newInviteCode } from "./invite-store";

/** How many people a wave's preview names: the rest are counted ("and 180 more"). */
export const PREVIEW_NAMED = 20;

export const SQL = {
  claim: `INSERT INTO waitlist_invite_wave (owner, size, ticket) VALUES ($1, $2, $3)
    ON CONFLICT (ticket) DO NOTHING RETURNING id`,
  ofTicket: "SELECT id FROM waitlist_invite_wave WHERE ticket = $1",
  record: `UPDATE waitlist_invite_wave SET invited = invited + $2, refused = refused + $3, stopped = stopped OR $4,
      file_people = file_people || $5::bigint[], file_pending = file_pending OR cardinality($5::bigint[]) > 0
    WHERE id = $1`,
  startedBy: "UPDATE waitlist_invite_wave SET author = $2 WHERE id = $1",
  read: `SELECT invited, refused, stopped, finished_at IS NOT NULL AS finished FROM waitlist_invite_wave WHERE id = $1`,
  /** Waves whose file the console still offers, with how many of their people are still invited (not joined). */
  pendingFiles: `SELECT v.id, (SELECT count(*)::int FROM waitlist w
        WHERE w.id = ANY(v.file_people) AND w.status = 'invited') AS people
    FROM waitlist_invite_wave v WHERE v.file_pending ORDER BY v.id`,
  filePeople: `SELECT w.id, ${PERSON_COLUMNS} FROM waitlist_invite_wave v JOIN waitlist w ON w.id = ANY(v.file_people)
    WHERE v.id = $1 AND v.file_pending AND w.status = 'invited' ORDER BY w.created_at, w.id`,
  /** New codes for people still invited: the lost file's codes (and any reminder's) stop working. */
  reissue: `UPDATE waitlist w SET invite_code_hash = c.hash, invite_reminder_code_hash = NULL, invite_expires_at = now() + make_interval(days => $2::int)
    FROM unnest($1::bigint[], $3::text[]) AS c(id, hash) WHERE w.id = c.id AND w.status = 'invited' RETURNING w.id`,
  arrived: "UPDATE waitlist_invite_wave SET file_pending = false WHERE id = $1 AND file_pending RETURNING id",
  /** People `$1` (the first of the line, in its order), as a preview names them. */
  named: `SELECT id, ${PERSON_COLUMNS}, created_at, source, referrals FROM waitlist WHERE id = ANY($1::bigint[])`,
} as const;

/** A person a preview names. */
export interface NamedPerson {
  id: number;
  email: string;
  createdAt: string;
  source: string | null;
  referrals: number;
}

/** The first PREVIEW_NAMED people a wave of `next` would invite, in line order (the line's head is its prefix). */
export async function previewPeople(db: Db, dataKeys: DataKeys | null, next: number, places: number) {
  const { ids } = await createLine(db, places).next(Math.min(next, PREVIEW_NAMED));
  if (ids.length === 0) return [];
  type Row = StoredPerson & { id: number; created_at: unknown; source: string | null; referrals: number };
  const rows = new Map((await db.query<Row>(SQL.named, [ids])).map((row) => [Number(row.id), row]));
  return ids.flatMap((id): NamedPerson[] => {
    const row = rows.get(id);
    if (!row) return [];
    const { email } = personOf(dataKeys, row);
    const createdAt = new Date(row.created_at as string).toISOString();
    return [{ id, email, createdAt, source: row.source, referrals: Number(row.referrals) }];
  });
}

export type WaveRecord = {
  invited: number;
  refused: number;
  stopped: boolean;
  finished: boolean;
};

export function waveRecords(db: Db, dataKeys: DataKeys | null) {
  return {
    /** The wave for this ticket: a new one claimed now (`claimed`), or the one an earlier confirmation claimed. */
    async claim(ticket: string, owner: string, size: number): Promise<{ wave: number; claimed: boolean }> {
      const [row] = await db.query<{ id: number }>(SQL.claim, [owner, size, ticket]);
      if (row) return { wave: Number(row.id), claimed: true };
      const [earlier] = await db.query<{ id: number }>(SQL.ofTicket, [ticket]);
      return { wave: Number(earlier?.id), claimed: false };
    },
    async record(
      wave: number,
      done: { invited: number; refused: number; stopped: boolean },
      fileIds: readonly number[],
    ): Promise<void> {
      await db.query(SQL.record, [wave, done.invited, done.refused, done.stopped, fileIds]);
    },
    /** Who started the wave (how the logs name them: a keyed hash), shown on its page. */
    async startedBy(wave: number, author: string): Promise<void> {
      await db.query(SQL.startedBy, [wave, author]);
    },
    async read(wave: number): Promise<WaveRecord | null> {
      const [row] = await db.query<WaveRecord>(SQL.read, [wave]);
      return row ? { ...row, invited: Number(row.invited), refused: Number(row.refused) } : null;
    },
    async pendingFiles(): Promise<Array<{ id: number; people: number }>> {
      const rows = await db.query<{ id: number; people: number }>(SQL.pendingFiles);
      return rows.map((row) => ({ id: Number(row.id), people: Number(row.people) }));
    },
    /** Wave `wave`'s file again: a new code for each of its people still invited; null when it is not offered. */
    async reissue(wave: number, ttlDays: number) {
      const rows = await db.query<StoredPerson & { id: number }>(SQL.filePeople, [wave]);
      const people = rows.map((row) => ({ id: Number(row.id), ...personOf(dataKeys, row), ...newInviteCode() }));
      const ids = people.map((p) => p.id);
      const reissued = new Set(
        (await db.query<{ id: number }>(SQL.reissue, [ids, ttlDays, people.map((p) => p.hash)])).map((r) =>
          Number(r.id),
        ),
      );
      // Someone who joined between the two statements keeps the code they used: they are not in the file.
      return people.filter((p) => reissued.has(p.id));
    },
    async arrived(wave: number): Promise<boolean> {
      return (await db.query(SQL.arrived, [wave])).length === 1;
    },
  };
}
