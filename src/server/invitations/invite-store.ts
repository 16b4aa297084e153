/**
 * Letting people in, in SQL: waves of invitations and the product's redemption of their codes. Every statement
 * stands alone (Neon's HTTP driver has no session), so what keeps two waves apart is in the rows: a wave reserves
 * the people it will invite (`invite_wave_id`, taken with SKIP LOCKED), and beats (`heartbeat_at`) while it sends.
 * Only a SHA-256 of each invite code is stored. Times are the database's, so every process agrees. The statements
 * are in invite-sql.ts.
 */
import { newToken } from "../crypto/tokens";
import { type DataKeys, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import { createLine } from "../store/line";
import type { InviteStore, RedeemOutcome } from "../store/types";
import { INVITE_SQL as SQL } from "./invite-sql";

/** 20 random bytes (160 bits) as base64url: 27 characters, the only shape a code ever has. */
const CODE_BYTES = 20;
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{27}$/;

/** A new invite code for the link, and the hash the database keeps. */
export function newInviteCode(): { code: string; hash: string } {
  const { token: code, hash } = newToken(CODE_BYTES);
  return { code, hash };
}

/**
 * People reserved by one statement: everyone matching a filter may be 100,000 and more, and one UPDATE of 100,000 on
 * a million-row list took 11 to 13 s, past DB_TIMEOUT_MS (5 s); 5,000 took 0.7 to 1.1 s, on an idle machine
 * (bench/wave-matching.ts): 2,000 leaves room for a loaded one.
 */
export const RESERVE_BATCH = 2000;

export function createInviteStore(db: Db, dataKeys: DataKeys | null = null): InviteStore {
  return { ...waveStart(db), ...waveSending(db, dataKeys), ...redeeming(db, dataKeys) };
}

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value instanceof Date ? value : String(value)).toISOString();

/** A wave begun: whom it would invite, the wave's row, and the people it takes from the line. */
function waveStart(db: Db): Pick<InviteStore, "preview" | "startWave" | "reserveIds" | "reserve"> {
  const line = (places: number) => createLine(db, places);
  return {
    async preview(next, places) {
      const { ids, movedUp } = await line(places).next(next);
      const [row] = await db.query<{ count: number; first: unknown; last: unknown; available: number }>(SQL.preview, [
        ids,
      ]);
      return {
        movedUp,
        count: Number(row?.count ?? 0),
        first: iso(row?.first),
        last: iso(row?.last),
        available: Number(row?.available ?? 0),
      };
    },
    async startWave(owner, size) {
      const [row] = await db.query<{ id: number }>(SQL.startWave, [owner, size]);
      return Number(row?.id);
    },
    async reserveIds(wave, ids) {
      let reserved = 0;
      for (let at = 0; at < ids.length; at += RESERVE_BATCH) {
        reserved += (await db.query(SQL.reserve, [wave, ids.slice(at, at + RESERVE_BATCH)])).length;
      }
      return reserved;
    },
    async reserve(wave, count, places) {
      // People another wave took (or is taking) at this moment are passed over: the line is read again without them.
      const taken = new Set<number>();
      for (let round = 0; round < 5; round++) {
        const { ids } = await line(places).next(count + taken.size);
        const fresh = ids.filter((id) => !taken.has(id)).slice(0, count);
        if (fresh.length === 0) return 0;
        const got = (await db.query(SQL.reserve, [wave, fresh])).length;
        if (got > 0) return got;
        for (const id of fresh) taken.add(id);
      }
      return 0;
    },
  };
}

type SendingMethods =
  | "members"
  | "unfinished"
  | "prepare"
  | "attempted"
  | "sent"
  | "sentAll"
  | "release"
  | "finish"
  | "releaseCancelled";

/** A wave sent: its members, each one's code and fate, and the wave's end (finished, or cancelled and its people freed). */
function waveSending(db: Db, dataKeys: DataKeys | null): Pick<InviteStore, SendingMethods> {
  return {
    async members(wave) {
      type Row = StoredPerson & { id: number; attempted: boolean; confirmed_by_link: boolean };
      const rows = await db.query<Row>(SQL.members, [wave]);
      return rows.map((row) => {
        const { email, name } = personOf(dataKeys, row);
        return { id: Number(row.id), email, name, attempted: row.attempted, confirmedByLink: row.confirmed_by_link };
      });
    },
    async unfinished(staleSeconds) {
      const rows = await db.query<{ id: number; owner: string; stale: boolean; remaining: number }>(SQL.unfinished, [
        staleSeconds,
      ]);
      return rows.map((row) => ({ ...row, id: Number(row.id), remaining: Number(row.remaining) }));
    },
    async prepare(wave, id, codeHash, ttlDays, leaveHash, statusHash = null) {
      const [row] = await db.query<{ held: number }>(SQL.prepare, [id, wave, codeHash, ttlDays, leaveHash, statusHash]);
      return Number(row?.held ?? 0) === 1;
    },
    async attempted(wave, id) {
      return (await db.query(SQL.attempted, [id, wave])).length === 1;
    },
    async sent(wave, id) {
      return (await db.query(SQL.sent, [id, wave])).length === 1;
    },
    async sentAll(wave, ids, codeHashes, ttlDays) {
      return (await db.query(SQL.sentAll, [wave, ids, codeHashes, ttlDays])).length;
    },
    async release(wave, id, linkHashes) {
      await db.query(SQL.release, [id, wave, linkHashes]);
    },
    async finish(wave) {
      await db.query(SQL.finish, [wave]);
    },
    async releaseCancelled(wave, inFlightSeconds) {
      return (await db.query(SQL.releaseCancelled, [wave, inFlightSeconds])).length;
    },
  };
}

/** The product's redemption: by the code's hash, or by the status page's derived access code. */
function redeeming(db: Db, dataKeys: DataKeys | null): Pick<InviteStore, "redeem" | "redeemAccess"> {
  return {
    async redeem(codeHash) {
      return redemption(SQL.redeem, [codeHash]);
    },
    async redeemAccess(person, isTheirs) {
      const [invite] = await db.query<{ status: string; invite_expires_at: unknown }>(SQL.accessOf, [person]);
      const expires = invite?.invite_expires_at;
      if (!invite || expires === null || expires === undefined) return { outcome: "unknown" };
      // The code must be this invitation's: a MAC over the person and when it expires (access-code.ts).
      const end = new Date(expires instanceof Date ? expires : String(expires));
      if (!isTheirs(end)) return { outcome: "unknown" };
      return redemption(SQL.redeemById, [person, end.toISOString()]);
    },
  };

  /** A redemption's statement run, and what it did. */
  async function redemption(sql: string, params: Array<string | number>): Promise<RedeemOutcome> {
    const [row] = await db.query<StoredPerson & { joined: number; status: string | null; expired: boolean | null }>(
      sql,
      params,
    );
    if (row && Number(row.joined) === 1) {
      const { email, name } = personOf(dataKeys, row);
      return { outcome: "joined", email, name };
    }
    if (!row || row.status === null) return { outcome: "unknown" };
    if (row.status === "joined") return { outcome: "used" };
    if (row.expired) return { outcome: "expired" };
    // Invited and unexpired, yet not joined by this statement: a redemption at the same moment took it.
    return row.status === "invited" ? { outcome: "used" } : { outcome: "unknown" };
  }
}
