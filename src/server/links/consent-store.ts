/**
 * Double opt-in and removal, in SQL: single-purpose tokens (only their SHA-256 is stored), issued at most once
 * per RESEND_MINUTES per address and kind, used by a POST from the page a link opens. Times are the
 * database's (now()), so every function instance agrees.
 */
import { CONFIRM_TTL_DAYS, REMOVE_TTL_DAYS, RESEND_MINUTES } from "../../lib/waitlist/consent";
import {
  addressKeys,
  type DataKeys,
  PERSON_COLUMNS,
  personOf,
  STORED_PERSON_FIELDS,
  type StoredPerson,
} from "../data-key";
import type { Db } from "../db/types";
import { COUNT_REFERRAL, isUniqueViolation, type ReferralOutcome } from "../referrals";
import type { ConsentStore } from "../store/types";

/**
 * Issues `$2` (confirm) and `$3` (remove) for a pending address not mailed in the last RESEND_MINUTES. `$1`: every
 * value its `email` column may hold (data-key.ts: addressKeys).
 */
const ISSUE_CONFIRMATION = `WITH target AS (
    UPDATE waitlist SET confirmation_sent_at = now()
    WHERE lower(email) = ANY($1::text[]) AND status = 'pending'
      AND (confirmation_sent_at IS NULL OR confirmation_sent_at <= now() - make_interval(mins => ${RESEND_MINUTES}))
    RETURNING id
  ), tokens AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT t.hash, target.id, t.purpose, now() + make_interval(days => t.days)
    FROM target, (VALUES ($2::text, 'confirm', ${CONFIRM_TTL_DAYS}), ($3::text, 'remove', ${REMOVE_TTL_DAYS})) AS t(hash, purpose, days)
  )
  SELECT id FROM target`;

/** Issues a removal token `$2` for a listed address (any status) not sent one in the last RESEND_MINUTES. */
const ISSUE_REMOVAL = `WITH target AS (
    UPDATE waitlist SET removal_sent_at = now()
    WHERE lower(email) = ANY($1::text[])
      AND (removal_sent_at IS NULL OR removal_sent_at <= now() - make_interval(mins => ${RESEND_MINUTES}))
    RETURNING id
  ), tokens AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT $2::text, id, 'remove', now() + make_interval(days => ${REMOVE_TTL_DAYS}) FROM target
  )
  SELECT id FROM target`;

/** An e-mail that could not be sent: its tokens go, and the next attempt may send again at once. */
const UNSEND = `WITH dropped AS (DELETE FROM waitlist_token WHERE token_hash = ANY($2::text[]))
  UPDATE waitlist SET confirmation_sent_at = CASE WHEN $3 = 'confirm' THEN NULL ELSE confirmation_sent_at END,
    removal_sent_at = CASE WHEN $3 = 'remove' THEN NULL ELSE removal_sent_at END
  WHERE id = $1`;

/**
 * Uses a confirm token (once, before it expires) and confirms its entry; reports what the token was. Confirming
 * issues the person's status link (`$2`, kept while they are listed) and counts their referral, if they came by a
 * share link (`$3`: REFERRALS_PER_DAY), in the same statement; it returns the address, for the status e-mail.
 */
const CONFIRM = `WITH token AS (
    SELECT t.waitlist_id, t.used_at IS NOT NULL AS used, t.expires_at <= now() AS expired, w.status
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    WHERE t.token_hash = $1 AND t.purpose = 'confirm'
  ), spent AS (
    UPDATE waitlist_token SET used_at = now()
    WHERE token_hash = $1 AND purpose = 'confirm' AND used_at IS NULL AND expires_at > now()
    RETURNING waitlist_id
  ), confirmed AS (
    UPDATE waitlist SET status = 'confirmed', confirmed_at = now()
    WHERE id IN (SELECT waitlist_id FROM spent) AND status = 'pending'
    RETURNING id, ${PERSON_COLUMNS}
  ), status_link AS (
    INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
    SELECT $2::text, id, 'status', 'infinity' FROM confirmed WHERE $2::text IS NOT NULL
  ), ${COUNT_REFERRAL("confirmed", "$3")}
  SELECT (SELECT count(*)::int FROM confirmed) AS confirmed, token.used, token.expired, token.status,
    ${STORED_PERSON_FIELDS.map((field) => `(SELECT ${field} FROM confirmed) AS ${field}`).join(", ")},
    (SELECT outcome FROM recorded) AS referral
  FROM (SELECT 1) AS one LEFT JOIN token ON true`;

/** Deletes the entry of an unexpired remove token (its tokens go with it); reports what the token was. */
const REMOVE = `WITH token AS (
    SELECT waitlist_id, expires_at <= now() AS expired FROM waitlist_token WHERE token_hash = $1 AND purpose = 'remove'
  ), removed AS (
    DELETE FROM waitlist WHERE id IN (SELECT waitlist_id FROM token WHERE NOT expired) RETURNING id
  )
  SELECT (SELECT count(*)::int FROM removed) AS removed, (SELECT bool_or(expired) FROM token) AS expired`;

/** Counts one e-mail to mailbox `$1` today and prunes days before yesterday; returns today's count. */
const MAILBOX_SENT = `WITH hit AS (
    INSERT INTO waitlist_mailbox_day (mailbox_key, day) VALUES ($1, current_date)
    ON CONFLICT (mailbox_key, day) DO UPDATE SET sent = waitlist_mailbox_day.sent + 1
    RETURNING sent
  ), pruned AS (
    DELETE FROM waitlist_mailbox_day WHERE day < current_date - 1 AND (SELECT sent FROM hit) = 1
  )
  SELECT sent FROM hit`;

/** The statements above by their use, for docs/sql/ (tests/unit/sql-docs.test.ts writes them out whole). */
export const CONSENT_SQL = {
  issueConfirmation: ISSUE_CONFIRMATION,
  issueRemoval: ISSUE_REMOVAL,
  unsend: UNSEND,
  confirm: CONFIRM,
  remove: REMOVE,
  mailboxSent: MAILBOX_SENT,
} as const;

export function createConsentStore(db: Db, dataKeys: DataKeys | null = null): ConsentStore {
  const firstId = (rows: Array<{ id: number | string }>) => (rows[0] ? Number(rows[0].id) : null);
  return {
    async issueConfirmation(email, confirmHash, removeHash) {
      return firstId(
        await db.query<{ id: number }>(ISSUE_CONFIRMATION, [addressKeys(dataKeys, email), confirmHash, removeHash]),
      );
    },
    async issueRemoval(email, removeHash) {
      return firstId(await db.query<{ id: number }>(ISSUE_REMOVAL, [addressKeys(dataKeys, email), removeHash]));
    },
    async unsend(id, hashes, kind) {
      await db.query(UNSEND, [id, hashes, kind]);
    },
    async mailboxSent(mailboxKey) {
      const [row] = await db.query<{ sent: number }>(MAILBOX_SENT, [mailboxKey]);
      return Number(row?.sent ?? 1);
    },
    async confirm(hash, options) {
      type Row = StoredPerson & {
        confirmed: number;
        used: boolean | null;
        expired: boolean | null;
        status: string | null;
        referral: ReferralOutcome | null;
      };
      const params = [hash, options.statusHash ?? null, options.referralsPerDay];
      // Two spellings of one mailbox confirming at the same moment: one statement counts, the other fails on the
      // counted mailboxes' unique index and, run again, finds it counted.
      const run = async (attempt = 1): Promise<Row | undefined> => {
        try {
          return (await db.query<Row>(CONFIRM, params))[0];
        } catch (error) {
          if (attempt < 3 && isUniqueViolation(error)) return run(attempt + 1);
          throw error;
        }
      };
      const row = await run();
      if (!row || row.status === null) return { outcome: "invalid" };
      if (Number(row.confirmed) === 1) {
        return { outcome: "confirmed", email: personOf(dataKeys, row).email, referral: row.referral };
      }
      // A link kept and opened again once its person moved on says where they stand, however old (never "sign up
      // again" to someone on the list).
      if (row.status === "confirmed") return { outcome: "already-confirmed" };
      if (row.status === "invited") return { outcome: "already-invited" };
      if (row.status === "joined") return { outcome: "already-joined" };
      return { outcome: row.expired ? "expired" : "invalid" };
    },
    async remove(hash) {
      const [row] = await db.query<{ removed: number; expired: boolean | null }>(REMOVE, [hash]);
      if (Number(row?.removed ?? 0) === 1) return "removed";
      return row?.expired ? "expired" : "invalid";
    },
  };
}
