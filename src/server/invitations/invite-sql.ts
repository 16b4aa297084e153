/**
 * The SQL of waves and redemptions (invite-store.ts runs it): who the next wave may take, reserving and releasing
 * people, a wave's beats, and the product's redemption of a code, once, before it expires.
 */
import { REMOVE_TTL_DAYS } from "../../lib/waitlist/consent";
import { PERSON_COLUMNS, PERSONAL_FIELDS } from "../data-key";

/**
 * Confirmed, in no wave yet and not on the suppression list: who the next wave may take. The suppressed are left
 * whether the wave mails them or (mail off) writes them into the team's CSV, so a preview's count is the wave.
 */
export const AVAILABLE = "status = 'confirmed' AND invite_wave_id IS NULL AND NOT mail_suppressed";

/**
 * Person `$1`, still confirmed and held by wave `$2`: found by the primary key. Not `invite_wave_id = $2`: with the
 * table's statistics from before a large wave reserved its people (all NULL then), the planner judged that rare and
 * read the wave's own index (waitlist_invite_wave_idx), every person the wave holds, for each statement: 45 ms with
 * 100,000 held on a million-row list, three statements an invitation, 8 invitations a second (bench/wave-matching.ts).
 * IS NOT DISTINCT FROM is the same test for a wave's id, and no index answers it.
 */
const HELD_PERSON = "id = $1 AND invite_wave_id IS NOT DISTINCT FROM $2 AND status = 'confirmed'";

/**
 * A redemption of the invite `predicate` finds (by a code's hash, or by id): once, before it expires, the person
 * joins; otherwise what the code was (used, expired, unknown).
 */
const redeemWhere = (predicate: string) => `WITH invite AS (
      SELECT status, invite_expires_at <= now() AS expired FROM waitlist
      WHERE ${predicate}
    ), joined AS (
      UPDATE waitlist SET status = 'joined', joined_at = now(), invited_at = coalesce(invited_at, now()),
        invite_wave_id = NULL, invite_attempted_at = NULL
      WHERE (${predicate}) AND invite_expires_at > now()
        AND (status = 'invited' OR (status = 'confirmed' AND invite_attempted_at IS NOT NULL))
      RETURNING ${PERSON_COLUMNS}
    )
    SELECT ${PERSONAL_FIELDS.map((field) => `(SELECT ${field} FROM joined) AS ${field}`).join(", ")},
      (SELECT key_id FROM joined) AS key_id, (SELECT sealed FROM joined) AS sealed, (SELECT count(*)::int FROM joined) AS joined,
      (SELECT status FROM invite) AS status, (SELECT expired FROM invite) AS expired`;

export const INVITE_SQL = {
  /** People `$1` (the next in line, store/line.ts): how many, their first and last sign-up days; everyone available. */
  preview: `SELECT count(*)::int AS count, min(created_at) AS first, max(created_at) AS last,
      (SELECT count(*)::int FROM waitlist WHERE ${AVAILABLE}) AS available
    FROM waitlist WHERE id = ANY($1::bigint[])`,
  startWave: "INSERT INTO waitlist_invite_wave (owner, size) VALUES ($1, $2) RETURNING id",
  /**
   * Reserves people `$2` (the next in line, store/line.ts) for wave `$1` while they are available. SKIP LOCKED: a
   * wave reserving at the same moment takes other people; a row it took meanwhile no longer matches and is passed
   * over (so fewer may come back than asked: the caller works out the line again and asks again).
   */
  reserve: `UPDATE waitlist SET invite_wave_id = $1 WHERE id IN (
      SELECT id FROM waitlist WHERE id = ANY($2::bigint[]) AND ${AVAILABLE} FOR UPDATE SKIP LOCKED
    ) RETURNING id`,
  /**
   * The people wave `$1` still holds, in sign-up order; `attempted`: their e-mail's end was being sent;
   * `confirmed_by_link`: they confirmed their address by its link (not stored confirmed while e-mail was off).
   */
  members: `SELECT id, ${PERSON_COLUMNS}, invite_attempted_at IS NOT NULL AS attempted,
      confirmed_at IS NOT NULL AS confirmed_by_link FROM waitlist
    WHERE invite_wave_id = $1 AND status = 'confirmed' ORDER BY created_at, id`,
  /** Waves not finished nor paused by the team, with how many people each still holds and whether it has stopped beating. */
  unfinished: `SELECT v.id, v.owner, v.heartbeat_at < now() - make_interval(secs => $1::int) AS stale,
      (SELECT count(*)::int FROM waitlist w WHERE w.invite_wave_id = v.id AND w.status = 'confirmed') AS remaining
    FROM waitlist_invite_wave v WHERE v.finished_at IS NULL AND v.paused_reason IS NULL ORDER BY v.id`,
  /**
   * Before person `$1` of wave `$2` is mailed: stores the hash of their code (`$3`, valid `$4` days) and of their
   * leave link (`$5`; none when null) and status link (`$6`, working while they are listed), and beats for the wave. Resolves to whether the person is still there to
   * invite (not removed meanwhile).
   */
  prepare: `WITH person AS (
      UPDATE waitlist SET invite_code_hash = $3, invite_expires_at = now() + make_interval(days => $4::int)
      WHERE ${HELD_PERSON} RETURNING id
    ), leave AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $5::text, id, 'remove', now() + make_interval(days => ${REMOVE_TTL_DAYS}) FROM person WHERE $5::text IS NOT NULL
      UNION ALL
      SELECT $6::text, id, 'status', 'infinity' FROM person WHERE $6::text IS NOT NULL
    ), beat AS (
      UPDATE waitlist_invite_wave SET heartbeat_at = now() WHERE id = $2
    )
    SELECT count(*)::int AS held FROM person`,
  /**
   * Person `$1`'s e-mail is whole on the server but for its last bytes: from now on it may be accepted at any
   * moment, so its code already redeems. It invites nobody: a wave that dies before it hears back leaves the
   * person confirmed in the wave, and the next run mails them again (with a new code).
   */
  attempted: `UPDATE waitlist SET invite_attempted_at = now()
    WHERE ${HELD_PERSON} RETURNING id`,
  /**
   * An SMTP server accepted person `$1`'s invitation (its answer to the final "." was read): they are invited (by
   * wave `$2`, kept in invited_wave_id once the wave has finished with them), and counted on their wave's row at once (its
   * progress page reads it while the wave runs).
   */
  sent: `WITH invited AS (
      UPDATE waitlist SET status = 'invited', invited_at = now(), invite_wave_id = NULL, invited_wave_id = $2,
        invite_attempted_at = NULL
      WHERE ${HELD_PERSON} RETURNING id
    ), counted AS (
      UPDATE waitlist_invite_wave SET invited = invited + 1 WHERE id = $2 AND EXISTS (SELECT 1 FROM invited)
    )
    SELECT id FROM invited`,
  /** The team's CSV has the codes `$3` (hashes, valid `$4` days) of people `$2` of wave `$1`: they are invited. */
  sentAll: `UPDATE waitlist w SET status = 'invited', invited_at = now(), invite_wave_id = NULL, invited_wave_id = $1,
      invite_code_hash = c.hash, invite_expires_at = now() + make_interval(days => $4::int)
    FROM unnest($2::bigint[], $3::text[]) AS c(id, hash)
    WHERE w.id = c.id AND w.invite_wave_id = $1 AND w.status = 'confirmed' RETURNING w.id`,
  /** Person `$1`'s invitation was refused: they stay confirmed, free for a later wave; the code and its links (`$3`) go. */
  release: `WITH released AS (
      UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
        invite_attempted_at = NULL
      WHERE ${HELD_PERSON} RETURNING id
    )
    DELETE FROM waitlist_token WHERE token_hash = ANY($3::text[]) AND waitlist_id IN (SELECT id FROM released)`,
  /** Ends wave `$1`: whoever it still holds, no server having accepted their e-mail, goes back to the confirmed list. */
  finish: `WITH released AS (
      UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
        invite_attempted_at = NULL
      WHERE invite_wave_id = $1 AND status = 'confirmed' RETURNING id
    )
    UPDATE waitlist_invite_wave SET finished_at = now() WHERE id = $1`,
  /**
   * Whoever cancelled wave `$1` (every cancelled wave when null) still holds goes back to the confirmed list, as
   * `finish` lets them go, whatever became of its run; but not someone whose e-mail's last bytes went under `$2`
   * seconds ago: a run still alive may yet hear it accepted (they are invited) or refused (it lets them go). A live
   * run mails nobody released here: its check before each e-mail's end (`attempted`) needs the wave to hold them.
   */
  releaseCancelled: `UPDATE waitlist SET invite_wave_id = NULL, invite_code_hash = NULL, invite_expires_at = NULL,
      invite_attempted_at = NULL
    WHERE status = 'confirmed' AND invite_wave_id IN (
        SELECT id FROM waitlist_invite_wave WHERE cancelled_at IS NOT NULL AND ($1::bigint IS NULL OR id = $1::bigint))
      AND (invite_attempted_at IS NULL OR invite_attempted_at < now() - make_interval(secs => $2::int))
    RETURNING id`,
  /**
   * The product redeems code hash `$1`: once, before it expires, the person joins. A code whose e-mail went to the
   * SMTP server from a wave that has not yet heard back works too (the e-mail may be in their inbox), and so does
   * a reminder's code beside the first e-mail's (reminders/): either, once.
   */
  redeem: redeemWhere("invite_code_hash = $1 OR invite_reminder_code_hash = $1"),
  /**
   * Person `$1` redeems by the code their status page derives (access-code.ts), its MAC checked first against their
   * invitation's end `$2` (to the millisecond, as the code was made): re-checked here, so an invitation re-issued
   * between the check and this statement is not redeemed by the old one's code.
   */
  redeemById: redeemWhere("id = $1::bigint AND date_trunc('milliseconds', invite_expires_at) = $2::timestamptz"),
  /** What a derived code is checked against: person `$1`'s invitation's end, while they are invited. */
  accessOf: "SELECT status, invite_expires_at FROM waitlist WHERE id = $1::bigint",
} as const;
