/**
 * Delivering the outbox, per Standard Webhooks: each event is POSTed as JSON `{"type", "timestamp", "data"}` with
 * `webhook-id` (the event's, the same at every attempt), `webhook-timestamp` (this attempt's) and
 * `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), made by the `standardwebhooks` package so
 * that any receiver's library verifies it. https only (http on this machine for development: config/webhooks.ts); 10 s per
 * attempt; redirects not followed; at most 1 KB of the answer kept. A 2xx is the acknowledgement; anything else is
 * tried again on the schedule (store.ts); a 410 Gone pauses every delivery until the team re-enables them.
 *
 * `data` is the person as the change left them, opened with DATA_KEY when sealed (payload.ts): the receiver is the
 * team's own tool, so it gets the address and name in clear, over https, signed.
 */
import { Webhook } from "standardwebhooks";
import type { WebhookTarget } from "../config/webhooks";
import { DataKeyError, type DataKeys } from "../data-key";
import { describeError, log } from "../log";
import { answerOf } from "./answer";
import { eventBody } from "./payload";
import { MAX_ATTEMPTS, type OutboxEvent, RETRY_SECONDS, type WebhookStore } from "./store";

export const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * Room an attempt needs beyond its answer's timeout (the claim, signing, recording): a run starts one only while
 * now + the timeout + this is before its deadline, so its last attempt ends within the run's time.
 */
export const ATTEMPT_MARGIN_MS = 2_000;
/** Waits before recording an acknowledged delivery again (ms): it was received, so only the record is retried. */
const RECORD_RETRY_MS = [100, 500] as const;
/** How long a process that cannot open an event's sealed snapshot leaves it for one that can (no try counted). */
export const UNREADABLE_RETRY_SECONDS = 300;

export interface Delivery {
  store: WebhookStore;
  dataKeys: DataKeys | null;
  webhook: WebhookTarget;
  /** Who holds the leases (a random id per run). */
  worker: string;
  /**
   * Every attempt ends by this time (ms since 1970): a scheduled function has 30 s. No attempt starts unless its
   * whole timeout and ATTEMPT_MARGIN_MS fit before it.
   */
  deadline?: number;
  /** The clock the deadline is read with (Date.now; tests move their own). */
  now?: () => number;
  /** At most this many attempts in this run. */
  limit?: number;
  fetch?: typeof fetch;
  /** The most an attempt waits for its answer (ATTEMPT_TIMEOUT_MS; tests shorten it). */
  timeoutMs?: number;
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
  /** The receiver answered 410 Gone: deliveries are paused. */
  gone: boolean;
}

/** When to try again after attempt `attempts` failed (seconds), or null: no tries left. */
export const retryAfter = (attempts: number) =>
  attempts >= MAX_ATTEMPTS ? null : (RETRY_SECONDS[attempts - 1] ?? null);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records what came of an attempt: with the answer, then (should the database refuse it) without, a moment later,
 * so that an answer can never keep an outcome from being recorded. Throws the last refusal.
 */
async function record<T>(write: (answer: string | null) => Promise<T>, answer: string | null): Promise<T> {
  let refusal: unknown;
  for (let i = 0; i <= RECORD_RETRY_MS.length; i++) {
    if (i > 0) await wait(RECORD_RETRY_MS[i - 1] ?? 0);
    try {
      return await write(i === 0 ? answer : null);
    } catch (error) {
      refusal = error;
    }
  }
  throw refusal;
}

/** What an attempt came to: go on with the next event, or stop this run. */
type Outcome = "next" | "stop";

/** What the receiver said: its status and answer, or why there was none. */
interface Answered {
  status: number | null;
  answer: string | null;
  error: string | null;
}

/** One attempt at one event; records what came of it. */
async function attempt(event: OutboxEvent, run: Delivery, report: DeliveryReport): Promise<Outcome> {
  let body: string;
  try {
    body = eventBody(event, run.dataKeys);
  } catch (error) {
    return unreadable(event, run, report, error);
  }
  const answered = await post(event, run, body);
  const { status } = answered;
  if (status !== null && status >= 200 && status < 300) return acknowledged(event, run, report, status, answered);
  if (status === 410) return gone(event, run, report, answered);
  const next = retryAfter(event.attempts);
  const why = answered.error ?? (status !== null ? `answered ${status}` : null);
  await record((kept) => run.store.missed(event.id, run.worker, status, kept, next, why), answered.answer);
  if (next === null) report.failed++;
  else report.retrying++;
  return "next";
}

/**
 * A sealed snapshot this process cannot open (DATA_KEY unset, or not the key it was sealed with): nothing was
 * sent, so the claim's try is given back, and a process that holds the key delivers it (in UNREADABLE_RETRY_SECONDS
 * at the latest). Counted, a process without the key would spend every try and fail events it never sent.
 * Its message names the key, never the row's contents.
 */
async function unreadable(event: OutboxEvent, run: Delivery, report: DeliveryReport, error: unknown) {
  const why = error instanceof DataKeyError ? error.message : describeError(error)["error"];
  await run.store.release(event.id, run.worker, UNREADABLE_RETRY_SECONDS, `unreadable: ${why}`);
  report.retrying++;
  return "next" as const;
}

/** The signed POST, within the attempt's timeout, redirects not followed. */
async function post(event: OutboxEvent, run: Delivery, body: string): Promise<Answered> {
  const at = new Date();
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "Noosphere-Webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(run.webhook.secret).sign(event.id, at, body),
  };
  try {
    const response = await (run.fetch ?? fetch)(run.webhook.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(run.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
    });
    return { status: response.status, answer: await answerOf(response), error: null };
  } catch (failure) {
    const name = (failure as Error).name;
    const timedOut = name === "TimeoutError" || name === "AbortError";
    const error = timedOut ? `no answer within ${(run.timeoutMs ?? ATTEMPT_TIMEOUT_MS) / 1000} s` : "could not connect";
    return { status: null, answer: null, error };
  }
}

/**
 * The receiver has it: from here only the record is tried again, never the POST. Should the database refuse
 * every try, the event keeps this run's lease (LEASE_SECONDS) and the run stops claiming; only a database that
 * stays down past the lease lets another run send it again, with the same webhook-id, by which receivers drop a
 * repeat (Standard Webhooks is at least once).
 */
async function acknowledged(
  event: OutboxEvent,
  run: Delivery,
  report: DeliveryReport,
  status: number,
  { answer }: Answered,
): Promise<Outcome> {
  try {
    if (await record((kept) => run.store.delivered(event.id, run.worker, status, kept ?? ""), answer)) {
      report.delivered++;
    }
    return "next";
  } catch (refusal) {
    log("error", "webhooks.record_failed", { id: event.id, status, ...describeError(refusal) });
    report.delivered++;
    return "stop";
  }
}

/** The receiver says it is gone for good: nothing more goes until the team re-enables deliveries. */
async function gone(event: OutboxEvent, run: Delivery, report: DeliveryReport, { answer }: Answered) {
  const { store, worker } = run;
  await record((kept) => store.missed(event.id, worker, 410, kept, 0, "410 Gone: deliveries paused"), answer);
  await store.pause("The receiver answered 410 Gone.");
  report.gone = true;
  log("warn", "webhooks.gone");
  return "stop" as const;
}

/**
 * Attempts every due event, one at a time, until none is due, the limit is reached, or the deadline leaves no room
 * for one more whole attempt (its timeout and ATTEMPT_MARGIN_MS): an attempt started is one that may take all of
 * its timeout, so a run ends by its deadline.
 */
export async function deliverDue(run: Delivery): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0, gone: false };
  const now = run.now ?? Date.now;
  const room = (run.timeoutMs ?? ATTEMPT_TIMEOUT_MS) + ATTEMPT_MARGIN_MS;
  for (let done = 0; done < (run.limit ?? Number.POSITIVE_INFINITY); done++) {
    if (run.deadline !== undefined && now() + room >= run.deadline) break;
    const event = await run.store.claim(run.worker);
    if (!event) break;
    if ((await attempt(event, run, report)) === "stop") break;
  }
  if (report.delivered + report.retrying + report.failed > 0) log("info", "webhooks.delivered", { ...report });
  return report;
}
