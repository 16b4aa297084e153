/**
 * When a referral counts, in SQL, as parts of the two statements that make it happen: the sign-up records who
 * shared the link (signup/store.ts runs RECORD_REFERRAL), and the confirmation counts it (links/consent-store.ts
 * runs COUNT_REFERRAL), in the statement that confirms, so a confirmation never stands without its referral
 * counted, or the reverse. A removal takes a counted referral back (migration 0011's trigger on waitlist_referral).
 *
 * A referral counts only for a real, new person: someone who confirmed a mailbox of their own. Not the referrer's
 * own mailbox (`self`, decided at sign-up, where the referrer's address can be opened), not a throwaway domain
 * (`disposable`, settled just before the confirmation counts: DISPOSABLE_SQL), not a mailbox already on the list
 * and confirmed, or already counted once for anyone (`duplicate`: mailbox.ts folds case, +tags, Gmail's dots and
 * googlemail.com), and at most REFERRALS_PER_DAY per referrer and UTC day (`over-limit`, recorded, not counted).
 */

import { PERSON_COLUMNS } from "../data-key";

/** Today in UTC, whatever the session's time zone. */
const TODAY = "(now() AT TIME ZONE 'UTC')::date";

/**
 * The sign-up's referral row, for the row `added` returned (its id): referrer `$r`, mailbox key `$m`, outcome `$o`
 * ('pending', or 'self' when decided already). Nothing when `$r` is null (no valid code).
 */
export const RECORD_REFERRAL = (added: string, referrer: string, mailbox: string, outcome: string) => `
  INSERT INTO waitlist_referral (referred_id, referrer_id, mailbox_key, outcome)
  SELECT id, ${referrer}::bigint, ${mailbox}::text, ${outcome}::text FROM ${added} WHERE ${referrer}::bigint IS NOT NULL`;

/**
 * CTEs counting the referral of the people `confirmed` returned (ids) just confirmed, with `$cap` referrals a day
 * per referrer. The referrer's row is bumped only while under the cap: an UPDATE re-reads that row once it holds its
 * lock, so two confirmations at once never both take the last place of a day. The referred person's row records
 * what happened (`recorded`: its outcome); the unique index on counted mailboxes turns a same-mailbox race into an
 * error the caller retries.
 */
export const COUNT_REFERRAL = (confirmed: string, cap: string) => `
  referral AS (
    SELECT r.referred_id, r.referrer_id, r.mailbox_key,
      -- Another row of the mailbox is on the list, confirmed (a counted referral always is: its row goes with it).
      EXISTS (SELECT 1 FROM waitlist o WHERE o.mailbox_key = r.mailbox_key AND o.id <> r.referred_id
                AND o.status <> 'pending') AS duplicate
    FROM waitlist_referral r JOIN ${confirmed} ON ${confirmed}.id = r.referred_id
    WHERE r.outcome = 'pending'
  ), bumped AS (
    UPDATE waitlist w SET referrals = w.referrals + 1,
      referrals_today = CASE WHEN w.referrals_day = ${TODAY} THEN w.referrals_today + 1 ELSE 1 END,
      referrals_day = ${TODAY}
    FROM referral WHERE w.id = referral.referrer_id AND NOT referral.duplicate AND ${cap}::int > 0
      AND (w.referrals_day IS DISTINCT FROM ${TODAY} OR w.referrals_today < ${cap}::int)
    RETURNING w.id
  ), recorded AS (
    UPDATE waitlist_referral r SET
      outcome = CASE WHEN referral.referrer_id IS NULL THEN 'referrer-left'
        WHEN referral.duplicate THEN 'duplicate'
        WHEN EXISTS (SELECT 1 FROM bumped) THEN 'counted'
        WHEN NOT EXISTS (SELECT 1 FROM waitlist w WHERE w.id = referral.referrer_id) THEN 'referrer-left'
        ELSE 'over-limit' END,
      counted_at = CASE WHEN EXISTS (SELECT 1 FROM bumped) THEN now() END
    FROM referral WHERE r.referred_id = referral.referred_id
    RETURNING r.outcome
  )`;

/**
 * A throwaway address's referral, settled by the confirmation just before it counts (links/throwaway.ts, with
 * mail/disposable.ts's list, which only the confirmation's function carries).
 */
export const DISPOSABLE_SQL = {
  /**
   * The person confirm token `$1` would confirm, when they still wait for a referral to be counted: nobody for a
   * used, expired or unknown token, or a sign-up that came by no share link (the common case, one indexed read).
   */
  pending: `SELECT w.id, ${PERSON_COLUMNS.split(", ")
    .map((column) => `w.${column}`)
    .join(", ")}
    FROM waitlist_token t JOIN waitlist w ON w.id = t.waitlist_id
    JOIN waitlist_referral r ON r.referred_id = w.id AND r.outcome = 'pending'
    WHERE t.token_hash = $1 AND t.purpose = 'confirm' AND t.used_at IS NULL AND t.expires_at > now()
      AND w.status = 'pending'`,
  /** Person `$1`'s referral will never count: their address is at a throwaway domain. */
  mark: "UPDATE waitlist_referral SET outcome = 'disposable' WHERE referred_id = $1 AND outcome = 'pending'",
} as const;

/** The referral outcomes a confirmation may record ('pending' never). */
export type ReferralOutcome = "counted" | "self" | "disposable" | "duplicate" | "over-limit" | "referrer-left";

/** Postgres's unique_violation, as every driver reports it (`code`). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "23505";
