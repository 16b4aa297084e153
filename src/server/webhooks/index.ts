/**
 * Webhooks, for the rest of the server: switching the outbox on, delivering right after a change is answered (the
 * platform's waitUntil), on schedule, and from the CLI, and what the console shows and does. Events themselves are
 * written by the database, in the change's own transaction (migration 0013).
 */
import { randomBytes } from "node:crypto";
import type { Context } from "@netlify/functions";
import type { ServerConfig } from "../config";
import type { ServerDeps } from "../deps";
import { afterAnswer } from "../http/responses";
import { describeError, log } from "../log";
import type { Store } from "../store/types";
import { type DeliveryReport, deliverDue } from "./deliver";
import { createWebhookStore } from "./store";

export { ATTEMPT_TIMEOUT_MS, type DeliveryReport, deliverDue } from "./deliver";
export {
  SNAPSHOT_KEYS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_TYPE,
  type WebhookEventType,
  type WebhookPayload,
  type WebhookPerson,
} from "./events";
export type { EventRow } from "./log-store";
export { eventBody } from "./payload";
export { createWebhookStore, MAX_ATTEMPTS, RETRY_SECONDS, type WebhookStore } from "./store";

/**
 * Days a delivered event is kept (then deleted), and any other keeps its person (then only its record; one still
 * waiting is failed: store.ts, retain).
 */
export const OUTBOX_DAYS = 30;

/** A run's name on the leases it holds. */
export const deliveryWorker = (role: string) => `${role}-${randomBytes(6).toString("hex")}`;

/**
 * The database records events from now on: said by every process that has WEBHOOK_URL (the server and functions,
 * once per instance). Only ever on. A process without the variable never switches recording off: the database is
 * shared (a local `npm start` pointed at the production DATABASE_URL runs the every-minute scheduled function
 * too), and an event not recorded is lost for ever to the deployment that does deliver them. Recording with nobody
 * delivering costs only rows the daily purge bounds (a waiting event's person is forgotten after OUTBOX_DAYS); an
 * operator who gives webhooks up for good says so once: `npm run waitlist -- webhooks off` (stopWebhookEvents).
 */
export async function recordWebhookEvents(store: Store): Promise<void> {
  await store.of(createWebhookStore).setEnabled(true);
}

/** The operator's explicit "no more events": refused to a process that itself has WEBHOOK_URL. */
export async function stopWebhookEvents(store: Store, config: ServerConfig): Promise<boolean> {
  if (config.webhook) return false;
  await store.of(createWebhookStore).setEnabled(false);
  return true;
}

/**
 * The keys waiting events are sealed under that this process does not hold: `webhooks deliver` refuses to run
 * without them (a snapshot can outlive its row: a removal's, or one sealed under a key since rotated away).
 */
export async function missingWebhookKeys(store: Store): Promise<string[]> {
  const held = [store.dataKeys?.current.id, store.dataKeys?.previous?.id];
  return (await store.of(createWebhookStore).sealedKeys()).filter((id) => !held.includes(id));
}

/** Delivers what is due, every attempt ended within `ms`; nothing when webhooks are off. */
export async function deliverNow(
  store: Store,
  config: ServerConfig,
  role: string,
  ms?: number,
  limit?: number,
): Promise<DeliveryReport | null> {
  if (!config.webhook) return null;
  return deliverDue({
    store: store.of(createWebhookStore),
    dataKeys: store.dataKeys,
    webhook: config.webhook,
    worker: deliveryWorker(role),
    ...(ms === undefined ? {} : { deadline: Date.now() + ms }),
    ...(limit === undefined ? {} : { limit }),
  });
}

/**
 * Delivery after an answer: a few attempts (the change's own events first among the due), well within a function's
 * limit, so a slow receiver never keeps every request's function busy; the schedule does the rest.
 */
const AFTER_ANSWER_MS = 20_000;
const AFTER_ANSWER_EVENTS = 3;

/**
 * A function's handler that, after answering a POST (every change to the list is one), delivers the events due
 * (the one it just wrote, first try at once). Whatever the receiver does, the answer has already gone.
 */
export function withWebhooks<H extends (req: Request, context: Context) => Promise<Response>>(
  handler: H,
  deps: ServerDeps,
): H {
  return (async (req: Request, context: Context) => {
    const response = await handler(req, context);
    const config = deps.config();
    if (req.method === "POST" && config.webhook) {
      const work = deps
        .store()
        .then((store) => deliverNow(store, config, "after-answer", AFTER_ANSWER_MS, AFTER_ANSWER_EVENTS))
        .catch((error: unknown) => log("error", "webhooks.deliver_failed", describeError(error)));
      afterAnswer(context, work);
    }
    return response;
  }) as H;
}

/** An event waiting longer than this means deliveries are failing (a receiver down, a backlog not moving). */
export const FAILING_AFTER_SECONDS = 300;
/** How many of the latest attempts are weighed: all of them failed means deliveries are failing. */
export const HEALTH_ATTEMPTS = 5;

export type WebhookHealth =
  | { state: "ok"; waiting: number }
  | { state: "paused" | "failing"; waiting: number; why: string; lastAnswer: string | null };

/**
 * Whether deliveries need the team, by one rule: paused (a 410), or failing (the oldest waiting event is more than
 * FAILING_AFTER_SECONDS old, or the last HEALTH_ATTEMPTS attempts that ended all went unacknowledged); with the
 * last answer heard. `now`: the clock (ms), which tests set.
 */
export async function webhookHealth(store: Store, now = Date.now()): Promise<WebhookHealth> {
  const hooks = store.of(createWebhookStore);
  const [state, health] = await Promise.all([hooks.state(), hooks.health(HEALTH_ATTEMPTS)]);
  const last = health.recent.find((attempt) => !attempt.delivered);
  const lastAnswer = last
    ? [
        last.status !== null ? `answered ${last.status}` : (last.error ?? "no answer"),
        last.answer?.trim().slice(0, 200),
      ]
        .filter(Boolean)
        .join(": ")
    : null;
  if (state.pausedAt) {
    return { state: "paused", waiting: health.waiting, why: state.pausedReason ?? "paused", lastAnswer };
  }
  const ageSeconds = health.oldest ? (now - Date.parse(health.oldest)) / 1000 : 0;
  if (ageSeconds > FAILING_AFTER_SECONDS) {
    const minutes = Math.floor(ageSeconds / 60);
    return {
      state: "failing",
      waiting: health.waiting,
      why: `the oldest waiting event is ${minutes} minute${minutes === 1 ? "" : "s"} old`,
      lastAnswer,
    };
  }
  if (health.recent.length > 0 && health.recent.every((attempt) => !attempt.delivered)) {
    const n = health.recent.length;
    return {
      state: "failing",
      waiting: health.waiting,
      why: n === 1 ? "the last attempt failed" : `the last ${n} attempts all failed`,
      lastAnswer,
    };
  }
  return { state: "ok", waiting: health.waiting };
}
