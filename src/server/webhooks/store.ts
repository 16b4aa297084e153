/**
 * The outbox in SQL. Events are written by the database itself, in the statement (and so the transaction) that
 * changes the list (migration 0013's triggers), only while webhooks are on; this module switches them on, hands one
 * due event at a time to a worker under a lease (so two workers never send one event at once), and records each
 * attempt: delivered (its person snapshot emptied), tried again later on the schedule, or failed. What the team
 * reads and does from the console (the log, the banner's figures, Retry now, a drain) is log-store.ts's.
 */
import type { Db } from "../db/types";
import { iso, webhookLog } from "./log-store";

/** After a failed attempt n (1, 2, …), the wait before the next: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then daily ×3. */
export const RETRY_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 86_400, 86_400, 86_400] as const;
/** Attempts in all: the first, at once, and one after each wait. */
export const MAX_ATTEMPTS = RETRY_SECONDS.length + 1;
/** A worker's hold on an event: longer than one attempt (10 s at most) with room to record it. */
export const LEASE_SECONDS = 60;

export interface OutboxEvent {
  id: string;
  type: string;
  waitlistId: number | null;
  occurredAt: string;
  person: Record<string, unknown> | null;
  attempts: number;
}

export const WEBHOOK_SQL = {
  /** Webhooks on or off, as the configuration of the process that opened the store says. */
  setEnabled: "UPDATE waitlist_webhook_state SET enabled = $1 WHERE enabled IS DISTINCT FROM $1",
  state: "SELECT enabled, paused_at, paused_reason FROM waitlist_webhook_state",
  pause: "UPDATE waitlist_webhook_state SET paused_at = now(), paused_reason = $1 WHERE paused_at IS NULL",
  resume: "UPDATE waitlist_webhook_state SET paused_at = NULL, paused_reason = NULL",
  /**
   * The next due event for worker `$1`, leased to it for LEASE_SECONDS and counted as an attempt. SKIP LOCKED and
   * the lease: another worker takes another event, or none.
   */
  claim: `UPDATE waitlist_webhook_event SET lease_owner = $1, lease_until = now() + make_interval(secs => ${LEASE_SECONDS}),
      attempts = attempts + 1, last_attempt_at = now()
    WHERE id = (
      SELECT id FROM waitlist_webhook_event
      WHERE state = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
        AND NOT EXISTS (SELECT 1 FROM waitlist_webhook_state WHERE paused_at IS NOT NULL)
      ORDER BY next_attempt_at, occurred_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id, type, waitlist_id, occurred_at, person, attempts`,
  /** Acknowledged (a 2xx) while worker `$2` held it: never sent again; the person's snapshot is dropped. */
  delivered: `UPDATE waitlist_webhook_event SET state = 'delivered', delivered_at = now(), person = NULL,
      lease_owner = NULL, lease_until = NULL, last_status = $3, last_answer = $4, last_error = NULL
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id`,
  /** Not acknowledged: tried again after `$5` seconds, or (null) failed for good. */
  missed: `UPDATE waitlist_webhook_event SET lease_owner = NULL, lease_until = NULL, last_status = $3, last_answer = $4,
      last_error = $6,
      state = CASE WHEN $5::int IS NULL THEN 'failed' ELSE 'pending' END,
      next_attempt_at = CASE WHEN $5::int IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $5::int) END
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id`,
  /**
   * Given back by worker `$2` unsent (it cannot open the event's sealed snapshot): the claim's try is not counted,
   * and it is due again after `$3` seconds, for a process that holds the key.
   */
  release: `UPDATE waitlist_webhook_event SET lease_owner = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0),
      last_error = $4, next_attempt_at = now() + make_interval(secs => $3::int)
    WHERE id = $1 AND lease_owner = $2 AND state = 'pending' RETURNING id`,
  /** The keys (DATA_KEY ids) the waiting events' snapshots are sealed under: a sender must hold each. */
  sealedKeys: `SELECT DISTINCT k.key_id FROM waitlist_webhook_event e,
      LATERAL (VALUES (e.person->>'key_id'), (e.person->'referred'->>'key_id')) AS k(key_id)
    WHERE e.state = 'pending' AND nullif(k.key_id, '') IS NOT NULL ORDER BY 1`,
  /**
   * What the outbox keeps, `$1` days (OUTBOX_DAYS) at most: a delivered event goes that long after delivery (its person
   * went at delivery); any other event older than that keeps its record, not its person, whatever its state, so that
   * someone removed is not kept here either. An event still waiting after that long (deliveries paused by a 410
   * and never re-enabled, or webhooks switched off; its tries take four days at most) is failed too: it would reach
   * its receiver without its person, and the team sees why in the delivery log. One held by a worker right now is
   * left to that attempt, and to the next day's run.
   */
  retain: `WITH gone AS (
      DELETE FROM waitlist_webhook_event WHERE state = 'delivered' AND delivered_at < now() - make_interval(days => $1::int)
      RETURNING 1
    ), forgotten AS (
      UPDATE waitlist_webhook_event SET person = NULL,
        state = CASE WHEN state = 'pending' THEN 'failed' ELSE state END,
        last_error = CASE WHEN state = 'pending' THEN $2 ELSE last_error END
      WHERE person IS NOT NULL AND occurred_at < now() - make_interval(days => $1::int)
        AND (lease_until IS NULL OR lease_until < now())
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM gone) AS deleted, (SELECT count(*)::int FROM forgotten) AS forgotten`,
} as const;

/** Delivery on or off, and paused by itself (a 410, say) with its reason, or resumed. */
function deliverySwitch(db: Db) {
  return {
    async setEnabled(enabled: boolean): Promise<void> {
      await db.query(WEBHOOK_SQL.setEnabled, [enabled]);
    },
    async state() {
      const [row] = await db.query<{ enabled: boolean; paused_at: unknown; paused_reason: string | null }>(
        WEBHOOK_SQL.state,
      );
      return {
        enabled: row?.enabled ?? false,
        pausedAt: iso(row?.paused_at),
        pausedReason: row?.paused_reason ?? null,
      };
    },
    async pause(reason: string): Promise<void> {
      await db.query(WEBHOOK_SQL.pause, [reason]);
    },
    async resume(): Promise<void> {
      await db.query(WEBHOOK_SQL.resume);
    },
  };
}

/** The outbox: an event claimed under a lease by one worker, then delivered, missed (retried later) or released. */
function outbox(db: Db) {
  return {
    async claim(worker: string): Promise<OutboxEvent | null> {
      const [row] = await db.query<{
        id: string;
        type: string;
        waitlist_id: number | null;
        occurred_at: unknown;
        person: Record<string, unknown> | string | null;
        attempts: number;
      }>(WEBHOOK_SQL.claim, [worker]);
      if (!row) return null;
      return {
        id: row.id,
        type: row.type,
        waitlistId: row.waitlist_id === null ? null : Number(row.waitlist_id),
        occurredAt: iso(row.occurred_at) ?? "",
        person: typeof row.person === "string" ? (JSON.parse(row.person) as Record<string, unknown>) : row.person,
        attempts: Number(row.attempts),
      };
    },
    async delivered(id: string, worker: string, status: number, answer: string): Promise<boolean> {
      return (await db.query(WEBHOOK_SQL.delivered, [id, worker, status, answer])).length === 1;
    },
    async missed(
      id: string,
      worker: string,
      status: number | null,
      answer: string | null,
      retryInSeconds: number | null,
      error: string | null,
    ): Promise<void> {
      await db.query(WEBHOOK_SQL.missed, [id, worker, status, answer, retryInSeconds, error]);
    },
    async release(id: string, worker: string, retryInSeconds: number, error: string): Promise<void> {
      await db.query(WEBHOOK_SQL.release, [id, worker, retryInSeconds, error]);
    },
  };
}

/** What is kept: the DATA_KEY ids waiting events are sealed under, and events past their days deleted. */
function keeping(db: Db) {
  return {
    async sealedKeys(): Promise<string[]> {
      return (await db.query<{ key_id: string }>(WEBHOOK_SQL.sealedKeys)).map((row) => row.key_id);
    },
    async retain(days: number): Promise<{ deleted: number; forgotten: number }> {
      const [row] = await db.query<{ deleted: number; forgotten: number }>(WEBHOOK_SQL.retain, [
        days,
        `not delivered within ${days} days: its person is no longer kept`,
      ]);
      return { deleted: Number(row?.deleted ?? 0), forgotten: Number(row?.forgotten ?? 0) };
    },
  };
}

/** The store, by concern, and the console's log (log-store.ts). */
export function createWebhookStore(db: Db) {
  return { ...deliverySwitch(db), ...outbox(db), ...keeping(db), ...webhookLog(db) };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
