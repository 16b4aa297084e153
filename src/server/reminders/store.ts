/**
 * The reminders in SQL: who is due one, the claim that makes it one (never two), and what the console counts. Due:
 * a pending sign-up whose last confirmation e-mail is older than CONFIRM_REMINDER_HOURS (signing up again sends a
 * new one, and the reminder waits for that one's day), and that signed up less than that plus REMINDER_WINDOW_HOURS ago (so turning
 * reminders on does not mail a backlog of months: a reminder is a nudge the day after, not a campaign), never
 * reminded, not suppressed, and not mailed by the product in the last hour (mail_sent).
 */
import { PERSON_COLUMNS, type StoredPerson } from "../data-key";
import type { Db } from "../db/types";

/** How long after it falls due a sign-up may still be reminded (a run every 10 minutes has many chances). */
export const REMINDER_WINDOW_HOURS = 48;
/** Nobody is reminded within this long of any e-mail from the product. */
export const QUIET_MINUTES = 60;

const DUE = `FROM waitlist w
  WHERE w.status = 'pending'
    AND coalesce(w.confirmation_sent_at, w.created_at) <= now() - make_interval(hours => $1::int)
    AND w.created_at > now() - make_interval(hours => $1::int + ${REMINDER_WINDOW_HOURS})
    AND NOT EXISTS (SELECT 1 FROM mail_reminder r WHERE r.waitlist_id = w.id AND r.kind = 'confirm')
    AND NOT EXISTS (SELECT 1 FROM mail_suppression s WHERE s.mailbox_key = w.mailbox_key AND s.lifted_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM mail_sent m WHERE m.mailbox_key = w.mailbox_key
      AND m.sent_at > now() - make_interval(mins => ${QUIET_MINUTES}))`;

export const REMINDER_SQL = {
  count: `SELECT count(*)::int AS n ${DUE}`,
  due: `SELECT w.id, ${PERSON_COLUMNS.split(", ")
    .map((c) => `w.${c}`)
    .join(", ")} ${DUE} ORDER BY w.id LIMIT $2`,
  /** The claim: true for the one run that inserted it. */
  claim: `INSERT INTO mail_reminder (waitlist_id, kind) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING waitlist_id`,
  /** A person's reminders, for their page. */
  of: "SELECT kind, sent_at FROM mail_reminder WHERE waitlist_id = $1 ORDER BY sent_at",
  /** Reminded to confirm, and how many of them confirmed after it. */
  outcome: `SELECT count(*)::int AS reminded, count(*) FILTER (WHERE w.confirmed_at > r.sent_at)::int AS confirmed
    FROM mail_reminder r JOIN waitlist w ON w.id = r.waitlist_id WHERE r.kind = 'confirm'`,
} as const;

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
    async outcome(): Promise<{ reminded: number; confirmed: number }> {
      const [row] = await db.query<{ reminded: number; confirmed: number }>(REMINDER_SQL.outcome);
      return { reminded: Number(row?.reminded ?? 0), confirmed: Number(row?.confirmed ?? 0) };
    },
  };
}
