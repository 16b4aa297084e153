/**
 * Delivering the outbox, per Standard Webhooks: each event is POSTed as JSON `{"type", "timestamp", "data"}` with
 * `webhook-id` (the event's, the same at every attempt), `webhook-timestamp` (this attempt's) and
 * `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), made by the `standardwebhooks` package so
 * that any receiver's library verifies it. https only (http on this machine for development, config.ts); 10 s per
 * attempt; redirects not followed; at most 1 KB of the answer kept. A 2xx is the acknowledgement; anything else is
 * tried again on the schedule (store.ts); a 410 Gone pauses every delivery until the team re-enables them.
 *
 * `data` is the person as the change left them (the snapshot the database took), opened with DATA_KEY when sealed:
 * the receiver is the team's own tool, so it gets the address and name in clear, over https, signed.
 */
import { Webhook } from "standardwebhooks";
import { type DataKeys, personOf } from "../data-key";
import { describeError, log } from "../log";
import { MAX_ATTEMPTS, type OutboxEvent, RETRY_SECONDS, type WebhookStore } from "./store";

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const ANSWER_BYTES = 1024;

export interface Delivery {
  store: WebhookStore;
  dataKeys: DataKeys | null;
  webhook: { url: string; secret: string };
  /** Who holds the leases (a random id per run). */
  worker: string;
  /** Stop claiming once this time (ms since 1970) has passed: a scheduled function has 30 s. */
  deadline?: number;
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

type Person = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : null);

/** The person as the receiver reads them: their sealed columns opened. */
function personData(person: Person, dataKeys: DataKeys | null): Person {
  const { email, name } = personOf(dataKeys, {
    email: text(person["email"]),
    name: text(person["name"]),
    message: null,
    organization: null,
    why: null,
    connect: null,
    key_id: text(person["key_id"]),
    sealed: text(person["sealed"]),
  });
  return {
    email,
    name,
    status: person["status"],
    source: person["source"] ?? null,
    medium: person["medium"] ?? null,
    campaign: person["campaign"] ?? null,
    referrer: person["referrer"] ?? null,
    page: person["page"] ?? null,
    signed_up_at: person["created_at"] ? new Date(String(person["created_at"])).toISOString() : null,
    referral_code: person["referral_code"] ?? null,
    referrals: person["referrals"] ?? 0,
  };
}

/** The event's body, exactly as it is signed and sent. */
export function eventBody(event: OutboxEvent, dataKeys: DataKeys | null): string {
  let data: Person;
  if (event.type === "webhook.test") {
    data = { message: "A test event from the waitlist console." };
  } else {
    const person = event.person ?? {};
    data = { id: event.waitlistId, ...personData(person, dataKeys) };
    const referred = person["referred"];
    if (referred && typeof referred === "object") data["referred"] = personData(referred as Person, dataKeys);
  }
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt, data });
}

/** At most ANSWER_BYTES of the answer's body, as text; the rest is not read. */
async function answerOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("utf8");
}

/** When to try again after attempt `attempts` failed (seconds), or null: no tries left. */
export const retryAfter = (attempts: number) =>
  attempts >= MAX_ATTEMPTS ? null : (RETRY_SECONDS[attempts - 1] ?? null);

/** One attempt at one event; records what came of it. */
async function attempt(event: OutboxEvent, run: Delivery, report: DeliveryReport): Promise<void> {
  const { store, worker } = run;
  let body: string;
  try {
    body = eventBody(event, run.dataKeys);
  } catch (error) {
    // A sealed snapshot this process cannot open: kept, and tried again by one that can.
    await store.missed(
      event.id,
      worker,
      null,
      null,
      retryAfter(event.attempts),
      `unreadable: ${describeError(error)["error"]}`,
    );
    report.retrying++;
    return;
  }
  const at = new Date();
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "Noosphere-Webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(run.webhook.secret).sign(event.id, at, body),
  };
  let status: number | null = null;
  let answer: string | null = null;
  let error: string | null = null;
  try {
    const response = await (run.fetch ?? fetch)(run.webhook.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(run.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
    });
    status = response.status;
    answer = await answerOf(response);
  } catch (failure) {
    const name = (failure as Error).name;
    const timedOut = name === "TimeoutError" || name === "AbortError";
    error = timedOut ? `no answer within ${(run.timeoutMs ?? ATTEMPT_TIMEOUT_MS) / 1000} s` : "could not connect";
  }
  if (status !== null && status >= 200 && status < 300) {
    if (await store.delivered(event.id, worker, status, answer ?? "")) report.delivered++;
    return;
  }
  if (status === 410) {
    // The receiver says it is gone for good: nothing more goes until the team re-enables deliveries.
    await store.missed(event.id, worker, status, answer, 0, "410 Gone: deliveries paused");
    await store.pause("The receiver answered 410 Gone.");
    report.gone = true;
    log("warn", "webhooks.gone");
    return;
  }
  const next = retryAfter(event.attempts);
  await store.missed(event.id, worker, status, answer, next, error ?? (status !== null ? `answered ${status}` : null));
  if (next === null) report.failed++;
  else report.retrying++;
}

/** Attempts every due event, one at a time, until none is due, the deadline passes or the limit is reached. */
export async function deliverDue(run: Delivery): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0, gone: false };
  for (let done = 0; done < (run.limit ?? Number.POSITIVE_INFINITY); done++) {
    if (run.deadline !== undefined && Date.now() >= run.deadline) break;
    const event = await run.store.claim(run.worker);
    if (!event) break;
    await attempt(event, run, report);
    if (report.gone) break;
  }
  if (report.delivered + report.retrying + report.failed > 0) log("info", "webhooks.delivered", { ...report });
  return report;
}
