/**
 * The outbox as the team reads and works it (the console's delivery log and first page): the latest events and
 * one person's, an event's state, the health banner's figures, counts by state, "Retry now", a test event, and
 * "Deliver everything waiting now" (a drain job). The outbox's own work, claiming, recording attempts and
 * keeping events for their days, is store.ts's; createWebhookStore offers both as one store.
 */
import type { Db } from "../db/types";
import { WEBHOOK_TEST_TYPE } from "./events";

/** An event as the console's log shows it. */
export interface EventRow {
  id: string;
  type: string;
  waitlistId: number | null;
  /** The person's snapshot while it is kept (dropped at delivery). */
  person: Record<string, unknown> | null;
  occurredAt: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastAnswer: string | null;
  lastError: string | null;
}

/** A database time as ISO 8601 (null stays null). */
export const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/** An event's columns as the log shows it (its next try only while it waits for one). */
export const EVENT_COLUMNS = `id, type, waitlist_id, person, occurred_at, state, attempts,
      CASE WHEN state = 'pending' THEN next_attempt_at END AS next_attempt_at, last_status, last_answer, last_error`;

/** A row of EVENT_COLUMNS as the database gives it. */
export type EventColumns = {
  id: string;
  type: string;
  waitlist_id: number | null;
  person: Record<string, unknown> | string | null;
  occurred_at: unknown;
  state: EventRow["state"];
  attempts: number;
  next_attempt_at: unknown;
  last_status: number | null;
  last_answer: string | null;
  last_error: string | null;
};

/** A row of EVENT_COLUMNS as an event. */
export const eventOf = (r: EventColumns): EventRow => ({
  id: r.id,
  type: r.type,
  waitlistId: r.waitlist_id === null ? null : Number(r.waitlist_id),
  person: typeof r.person === "string" ? (JSON.parse(r.person) as Record<string, unknown>) : r.person,
  occurredAt: iso(r.occurred_at) ?? "",
  state: r.state,
  attempts: Number(r.attempts),
  nextAttemptAt: iso(r.next_attempt_at),
  lastStatus: r.last_status === null ? null : Number(r.last_status),
  lastAnswer: r.last_answer,
  lastError: r.last_error,
});

export const WEBHOOK_LOG_SQL = {
  /** A failed event (or one waiting for its next try) goes again now: its tries start over. */
  retry: `UPDATE waitlist_webhook_event SET state = 'pending', next_attempt_at = now(), attempts = 0
    WHERE id = $1 AND state IN ('failed', 'pending') RETURNING id`,
  /** A test event, written like the others (it names nobody). */
  test: `INSERT INTO waitlist_webhook_event (id, type, person) VALUES (waitlist_webhook_new_id(), '${WEBHOOK_TEST_TYPE}', NULL)
    RETURNING id`,
  /** The latest `$1` events, newest first (`$2`: one person's only, when set; `$3`: in that state only). */
  recent: `SELECT ${EVENT_COLUMNS} FROM waitlist_webhook_event WHERE ($2::bigint IS NULL OR waitlist_id = $2::bigint)
      AND ($3::text IS NULL OR state = $3::text)
    ORDER BY occurred_at DESC, id DESC LIMIT $1`,
  /** Event `$1`'s state, or no row: what "Retry now" may say it did. */
  stateOf: "SELECT state, last_status, last_error FROM waitlist_webhook_event WHERE id = $1",
  /**
   * Deliveries' health: the oldest event still waiting, and the outcome of the last `$1` attempts that have one
   * (an attempt under way has none yet), newest first.
   */
  health: `SELECT (SELECT min(occurred_at) FROM waitlist_webhook_event WHERE state = 'pending') AS oldest,
      (SELECT count(*)::int FROM waitlist_webhook_event WHERE state = 'pending') AS waiting,
      (SELECT coalesce(json_agg(json_build_object('delivered', r.state = 'delivered', 'status', r.last_status,
          'error', r.last_error, 'answer', r.last_answer) ORDER BY r.last_attempt_at DESC), '[]')
        FROM (SELECT state, last_status, last_error, last_answer, last_attempt_at FROM waitlist_webhook_event
          WHERE last_attempt_at IS NOT NULL AND (lease_until IS NULL OR lease_until < now())
          ORDER BY last_attempt_at DESC LIMIT $1) r) AS recent`,
  /**
   * "Deliver everything waiting now": every waiting event due at once (tries kept: a failing one still ends on its
   * schedule), and a drain job (migration 0015) by `$1` that the background delivers them in, counting them.
   */
  drain: `WITH due AS (
      UPDATE waitlist_webhook_event SET next_attempt_at = now() WHERE state = 'pending' AND next_attempt_at > now()
      RETURNING 1
    )
    INSERT INTO waitlist_webhook_drain (author, owner, heartbeat_at, total)
    VALUES ($1, 'paused', now(), (SELECT count(*)::int FROM waitlist_webhook_event WHERE state = 'pending'))
    RETURNING id, total, (SELECT count(*)::int FROM due) AS made_due`,
  counts: `SELECT state, count(*)::int AS n FROM waitlist_webhook_event GROUP BY state`,
} as const;

export function webhookLog(db: Db) {
  return {
    async retry(id: string): Promise<boolean> {
      return (await db.query(WEBHOOK_LOG_SQL.retry, [id])).length === 1;
    },
    async test(): Promise<string> {
      return String((await db.query<{ id: string }>(WEBHOOK_LOG_SQL.test))[0]?.id);
    },
    async recent(limit: number, waitlistId: number | null = null, state: EventRow["state"] | null = null) {
      const rows = await db.query<EventColumns>(WEBHOOK_LOG_SQL.recent, [limit, waitlistId, state]);
      return rows.map(eventOf);
    },
    /** Event `id`'s state now; null when there is no such event. */
    async stateOf(id: string) {
      const [row] = await db.query<{ state: EventRow["state"]; last_status: number | null; last_error: string | null }>(
        WEBHOOK_LOG_SQL.stateOf,
        [id],
      );
      return row
        ? {
            state: row.state,
            lastStatus: row.last_status === null ? null : Number(row.last_status),
            lastError: row.last_error,
          }
        : null;
    },
    async health(attempts: number) {
      const [row] = await db.query<{
        oldest: unknown;
        waiting: number;
        recent:
          | string
          | Array<{ delivered: boolean; status: number | null; error: string | null; answer: string | null }>;
      }>(WEBHOOK_LOG_SQL.health, [attempts]);
      const recent = typeof row?.recent === "string" ? JSON.parse(row.recent) : (row?.recent ?? []);
      return { oldest: iso(row?.oldest), waiting: Number(row?.waiting ?? 0), recent } as {
        oldest: string | null;
        waiting: number;
        recent: Array<{ delivered: boolean; status: number | null; error: string | null; answer: string | null }>;
      };
    },
    /** Every waiting event due now, in a new drain job by `author`: its id, and how many were waiting. */
    async drain(author: string): Promise<{ id: number; total: number }> {
      const [row] = await db.query<{ id: number; total: number }>(WEBHOOK_LOG_SQL.drain, [author]);
      return { id: Number(row?.id), total: Number(row?.total ?? 0) };
    },
    async counts(): Promise<Record<EventRow["state"], number>> {
      const counts = { pending: 0, delivered: 0, failed: 0 };
      for (const row of await db.query<{ state: EventRow["state"]; n: number }>(WEBHOOK_LOG_SQL.counts)) {
        counts[row.state] = Number(row.n);
      }
      return counts;
    },
  };
}
