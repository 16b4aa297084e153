/**
 * The referrals' own SQL: who a share code belongs to, what a status link shows, the status link mailed again,
 * leaving from the status page, and what the console shows of referrals. Counting is in count.ts (it runs inside
 * the sign-up's and the confirmation's statements); the line is store/line.ts.
 */
import { RESEND_MINUTES } from "../../lib/waitlist/consent";
import { addressKeys, type DataKeys, PERSON_COLUMNS, personOf, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";
import type { EntryStatus } from "../entry";
import type { StatusLink } from "../store/referral-types";
import type { ReferralStore, StatusView } from "../store/types";

const TOP_REFERRERS_LIMIT = 10;

export const REFERRAL_SQL = {
  /** The person whose share code is `$1`. */
  referrer: `SELECT id, ${PERSON_COLUMNS} FROM waitlist WHERE referral_code = $1`,
  /** The person a status link (hash `$1`) belongs to, as their page shows them. */
  status: `SELECT w.id, w.status, w.invited_at, w.joined_at, w.invite_expires_at, w.referral_code, w.referrals,
      w.updates_consent
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    WHERE t.token_hash = $1 AND t.purpose = 'status' AND t.expires_at > now()`,
  /** Person `$1`, by an update's status link (updates/status-token.ts), as their page shows them; a pending one has none. */
  statusById: `SELECT id, status, invited_at, joined_at, invite_expires_at, referral_code, referrals, updates_consent
    FROM waitlist WHERE id = $1 AND status <> 'pending'`,
  /**
   * A status link `$2` for a listed, confirmed (or invited, or joined) address `$1` not sent one in the last
   * RESEND_MINUTES: resolves to its id. A pending address has no place yet (its confirmation is what it needs).
   */
  issue: `WITH target AS (
      UPDATE waitlist SET status_sent_at = now()
      WHERE lower(email) = ANY($1::text[]) AND status <> 'pending'
        AND (status_sent_at IS NULL OR status_sent_at <= now() - make_interval(mins => ${RESEND_MINUTES}))
      RETURNING id
    ), token AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $2::text, id, 'status', 'infinity' FROM target
    )
    SELECT id FROM target`,
  /** A status link whose e-mail could not go: dropped, and the address due again at once. */
  unsend: `WITH dropped AS (DELETE FROM waitlist_token WHERE token_hash = ANY($2::text[]))
    UPDATE waitlist SET status_sent_at = NULL WHERE id = $1`,
  /** Leaving from the status page (hash `$1`): the row goes, its tokens and referral record with it. */
  leave: `DELETE FROM waitlist WHERE id = (
      SELECT waitlist_id FROM waitlist_token WHERE token_hash = $1 AND purpose = 'status'
    ) RETURNING id`,
  /** Leaving by an update's status link: person `$1` goes, as by a stored link. */
  leaveById: `DELETE FROM waitlist WHERE id = $1 AND status <> 'pending' RETURNING id`,
  /** Counted referrals in all, and in the last `$1` days. */
  totals: `SELECT count(*)::bigint AS counted,
      count(*) FILTER (WHERE counted_at > now() - make_interval(days => $1::int))::bigint AS recent
    FROM waitlist_referral WHERE outcome = 'counted'`,
  /** The `$2` people with the most referrals counted in the last `$1` days, and how many each. */
  top: `SELECT w.id, ${PERSON_COLUMNS.split(", ")
    .map((c) => `w.${c}`)
    .join(", ")}, w.referral_code, t.counted
    FROM (SELECT referrer_id, count(*)::int AS counted FROM waitlist_referral
          WHERE outcome = 'counted' AND counted_at > now() - make_interval(days => $1::int) AND referrer_id IS NOT NULL
          GROUP BY referrer_id ORDER BY count(*) DESC, referrer_id LIMIT $2) t
    JOIN waitlist w ON w.id = t.referrer_id ORDER BY t.counted DESC, w.id`,
} as const;

/** A status link's statement and parameter: by its hash (a stored link), or by its person (an update's). */
const byLink = (link: StatusLink, byHash: string, byId: string): [string, [string | number]] =>
  "person" in link ? [byId, [link.person]] : [byHash, [link.hash]];

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

export function createReferralStore(db: Db, dataKeys: DataKeys | null): ReferralStore {
  return {
    async referrer(code) {
      const [row] = await db.query<StoredPerson & { id: number }>(REFERRAL_SQL.referrer, [code]);
      return row ? { id: Number(row.id), email: personOf(dataKeys, row).email } : null;
    },
    async status(link): Promise<StatusView | null> {
      const [row] = await db.query<{
        id: number;
        status: EntryStatus;
        invited_at: unknown;
        joined_at: unknown;
        invite_expires_at: unknown;
        referral_code: string;
        referrals: number;
        updates_consent: boolean | null;
      }>(...byLink(link, REFERRAL_SQL.status, REFERRAL_SQL.statusById));
      if (!row) return null;
      return {
        id: Number(row.id),
        status: row.status,
        invitedAt: iso(row.invited_at),
        joinedAt: iso(row.joined_at),
        inviteExpiresAt: iso(row.invite_expires_at),
        code: row.referral_code,
        referrals: Number(row.referrals),
        updates: row.updates_consent,
      };
    },
    async issueStatus(email, hash) {
      const [row] = await db.query<{ id: number }>(REFERRAL_SQL.issue, [addressKeys(dataKeys, email), hash]);
      return row ? Number(row.id) : null;
    },
    async unsendStatus(id, hashes) {
      await db.query(REFERRAL_SQL.unsend, [id, hashes]);
    },
    async leave(link) {
      return (await db.query(...byLink(link, REFERRAL_SQL.leave, REFERRAL_SQL.leaveById))).length > 0;
    },
    async summary(days) {
      const [totals] = await db.query<{ counted: number; recent: number }>(REFERRAL_SQL.totals, [days]);
      const top = await db.query<StoredPerson & { id: number; referral_code: string; counted: number }>(
        REFERRAL_SQL.top,
        [days, TOP_REFERRERS_LIMIT],
      );
      return {
        counted: Number(totals?.counted ?? 0),
        recent: Number(totals?.recent ?? 0),
        top: top.map((row) => ({
          email: personOf(dataKeys, row).email,
          code: row.referral_code,
          counted: Number(row.counted),
        })),
      };
    },
  };
}
