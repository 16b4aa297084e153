/**
 * The reminders in SQL: who is due one, the claim that makes it one (never two), and what the console counts.
 *
 * To confirm: a pending sign-up whose last confirmation e-mail is older than CONFIRM_REMINDER_HOURS (signing up
 * again sends a new one, and the reminder waits for that one's day), and that signed up less than that plus
 * REMINDER_WINDOW_HOURS ago (so turning reminders on does not mail a backlog of months: a reminder is a nudge the
 * day after, not a campaign).
 *
 * Of an invitation: an invited person whose code is unused and expires within INVITE_REMINDER_DAYS (but not within
 * the hour: a link that dies as it arrives helps nobody), invited at least a day ago (a short-lived invitation is
 * not followed at once by its reminder). The reminder's fresh code works beside the first (0017).
 *
 * Either: never reminded of that kind, not suppressed, and not mailed by the product in the last hour (mail_sent).
 */
import { REMOVE_TTL_DAYS } from "../../lib/waitlist/consent";
import { PERSON_COLUMNS, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";

/** How long after it falls due a sign-up may still be reminded (a run every 10 minutes has many chances). */
export const REMINDER_WINDOW_HOURS = 48;
/** Nobody is reminded within this long of any e-mail from the product. */
export const QUIET_MINUTES = 60;

/** What both kinds ask: never reminded of this kind, not suppressed (the flag migrations 0019 and 0021 keep), not mailed in the last hour. */
const NOT_YET = (kind: "confirm" | "invite") => `
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = '${kind}')
    AND NOT w.mail_suppressed
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => ${QUIET_MINUTES}))`;

const DUE = `FROM waitlist w
  WHERE w.status = 'pending'
    AND coalesce(w.confirmation_sent_at, w.created_at) <= now() - make_interval(hours => $1::int)
    AND w.created_at > now() - make_interval(hours => $1::int + ${REMINDER_WINDOW_HOURS})${NOT_YET("confirm")}`;

/** `$1`: INVITE_REMINDER_DAYS. */
const INVITE_DUE = `FROM waitlist w
  WHERE w.status = 'invited' AND w.invite_code_hash IS NOT NULL
    AND w.invite_expires_at <= now() + make_interval(days => $1::int)
    AND w.invite_expires_at > now() + interval '1 hour'
    AND w.invited_at <= now() - interval '1 day'${NOT_YET("invite")}`;

const PERSON = PERSON_COLUMNS.split(", ")
  .map((c) => `w.${c}`)
  .join(", ");

export const REMINDER_SQL = {
  count: `SELECT count(*)::int AS n ${DUE}`,
  due: `SELECT w.id, ${PERSON} ${DUE} ORDER BY w.id LIMIT $2`,
  inviteCount: `SELECT count(*)::int AS n ${INVITE_DUE}`,
  inviteDue: `SELECT w.id, ${PERSON}, w.confirmed_at IS NOT NULL AS confirmed_by_link, w.invite_expires_at
    ${INVITE_DUE} ORDER BY w.invite_expires_at, w.id LIMIT $2`,
  /**
   * Person `$1`, still invited and unexpired, gets the reminder's code `$2` (beside the first) and, for the e-mail,
   * a leave link `$3` and a status link `$4`: when their invitation expires, or nothing when they are no longer
   * invited (joined or removed meanwhile).
   */
  inviteCode: `WITH person AS (
      UPDATE waitlist SET invite_reminder_code_hash = $2
      WHERE id = $1 AND status = 'invited' AND invite_expires_at > now() RETURNING id, invite_expires_at
    ), links AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $3::text, id, 'remove', now() + make_interval(days => ${REMOVE_TTL_DAYS}) FROM person
      UNION ALL
      SELECT $4::text, id, 'status', 'infinity' FROM person
    )
    SELECT invite_expires_at FROM person`,
  /** The claim: true for the one run that inserted it. */
  claim: `INSERT INTO mail_reminder (waitlist_id, kind) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING waitlist_id`,
  /** A person's reminders, for their page. */
  of: "SELECT kind, sent_at FROM mail_reminder WHERE waitlist_id = $1 ORDER BY sent_at",
  /** Reminded to confirm, and how many of them confirmed after it. */
  outcome: `SELECT count(*)::int AS reminded, count(*) FILTER (WHERE w.confirmed_at > r.sent_at)::int AS confirmed
    FROM mail_reminder r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.kind = 'confirm'`,
  /** Reminded of their invitation, and how many of them joined after it. */
  inviteOutcome: `SELECT count(*)::int AS reminded, count(*) FILTER (WHERE w.joined_at > r.sent_at)::int AS joined
    FROM mail_reminder r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.kind = 'invite'`,
} as const;

/** An invited person due a reminder: who, whether they confirmed by link (the e-mail says so), when it expires. */
export type InviteDue = StoredPerson & { id: number; confirmedByLink: boolean; expiresAt: Date };

export function createReminderStore(db: Db) {
  return {
    async count(hours: number): Promise<number> {
      const [row] = await db.query<{ n: number }>(REMINDER_SQL.count, [hours]);
      return Number(row?.n ?? 0);
    },
    async due(hours: number, limit: number): Promise<Array<StoredPerson & { id: number }>> {
      return db.query<StoredPerson & { id: number }>(REMINDER_SQL.due, [hours, limit]);
    },
    async claim(id: number, kind: "confirm" | "invite"): Promise<boolean> {
      return (await db.query(REMINDER_SQL.claim, [id, kind])).length > 0;
    },
    async of(id: number): Promise<Array<{ kind: string; sentAt: string }>> {
      const rows = await db.query<{ kind: string; sent_at: unknown }>(REMINDER_SQL.of, [id]);
      return rows.map((r) => ({ kind: r.kind, sentAt: new Date(r.sent_at as string).toISOString() }));
    },
    async inviteCount(days: number): Promise<number> {
      const [row] = await db.query<{ n: number }>(REMINDER_SQL.inviteCount, [days]);
      return Number(row?.n ?? 0);
    },
    async inviteDue(days: number, limit: number): Promise<Array<InviteDue>> {
      const rows = await db.query<
        StoredPerson & { id: number; confirmed_by_link: boolean; invite_expires_at: unknown }
      >(REMINDER_SQL.inviteDue, [days, limit]);
      return rows.map((row) => ({
        ...row,
        confirmedByLink: Boolean(row.confirmed_by_link),
        expiresAt: new Date(row.invite_expires_at as string),
      }));
    },
    /** When their invitation expires, once the reminder's code and links are stored; null: no longer invited. */
    async inviteCode(id: number, codeHash: string, leaveHash: string, statusHash: string): Promise<Date | null> {
      const [row] = await db.query<{ invite_expires_at: unknown }>(REMINDER_SQL.inviteCode, [
        id,
        codeHash,
        leaveHash,
        statusHash,
      ]);
      return row ? new Date(row.invite_expires_at as string) : null;
    },
    async inviteOutcome(): Promise<{ reminded: number; joined: number }> {
      const [row] = await db.query<{ reminded: number; joined: number }>(REMINDER_SQL.inviteOutcome);
      return { reminded: Number(row?.reminded ?? 0), joined: Number(row?.joined ?? 0) };
    },
    async outcome(): Promise<{ reminded: number; confirmed: number }> {
      const [row] = await db.query<{ reminded: number; confirmed: number }>(REMINDER_SQL.outcome);
      return { reminded: Number(row?.reminded ?? 0), confirmed: Number(row?.confirmed ?? 0) };
    },
  };
}
