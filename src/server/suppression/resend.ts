/**
 * Resend's events (https://resend.com/docs/dashboard/webhooks/event-types), signed as Svix signs: `svix-id`,
 * `svix-timestamp`, `svix-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under RESEND_WEBHOOK_SECRET,
 * `whsec_…`): Standard Webhooks' scheme under other header names, so the `standardwebhooks` package verifies it,
 * timestamp within 5 minutes included. Two events matter: `email.bounced` whose `bounce.type` is Permanent (a
 * Transient one counts as soft), and `email.complained`. Idempotent by `svix-id`, which Resend keeps across retries.
 */
import { Webhook } from "standardwebhooks";
import type { MailEvent } from "./record";

/** What a provider's request came to: events to record, or why it is refused (nothing changes). */
export type Verified = { events: MailEvent[] } | { status: 400 | 401; error: string };

interface ResendPayload {
  type?: unknown;
  data?: {
    email_id?: unknown;
    to?: unknown;
    bounce?: { type?: unknown; subType?: unknown; message?: unknown };
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function resendEvents(secret: string, headers: Headers, body: string): Verified {
  const id = headers.get("svix-id");
  const timestamp = headers.get("svix-timestamp");
  const signature = headers.get("svix-signature");
  if (!id || !timestamp || !signature)
    return { status: 401, error: "Unsigned: svix-id, svix-timestamp and svix-signature are required." };
  let payload: ResendPayload;
  try {
    payload = new Webhook(secret).verify(body, {
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": signature,
    }) as ResendPayload;
  } catch (error) {
    return { status: 401, error: `Not verified: ${(error as Error).message}.` };
  }
  if (typeof payload !== "object" || payload === null || typeof payload.type !== "string") {
    return { status: 400, error: "An event has a type." };
  }
  const data = payload.data ?? {};
  const to = Array.isArray(data.to) ? data.to.filter((a): a is string => typeof a === "string") : [];
  const base = { provider: "resend", messageIds: [text(data.email_id)].filter(Boolean) };
  if (payload.type === "email.complained") {
    return {
      events: to.map((email, i) => ({
        ...base,
        eventId: `${id}#${i}`,
        kind: "complaint",
        email,
        evidence: `email.complained ${id}`,
      })),
    };
  }
  if (payload.type === "email.bounced") {
    const bounce = data.bounce ?? {};
    const permanent = text(bounce.type) === "Permanent";
    const evidence = `email.bounced ${text(bounce.type)} ${text(bounce.subType)}: ${text(bounce.message)}`.slice(
      0,
      500,
    );
    return {
      events: to.map((email, i) => ({
        ...base,
        eventId: `${id}#${i}`,
        kind: permanent ? "hard_bounce" : "soft_bounce",
        email,
        evidence,
      })),
    };
  }
  // Sent, delivered, opened…: verified, and nothing to do.
  return { events: [] };
}
