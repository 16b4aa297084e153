/**
 * An event's body, exactly as it is signed and sent (events.ts: its type): `data` is the person as the change left
 * them (the snapshot the database took), opened with DATA_KEY when sealed; the referred person and the suppression
 * beside them when the event has them. The console's log shows the same body.
 */
import { mergedAnswers } from "../answers";
import { type DataKeys, personOf } from "../data-key";
import {
  WEBHOOK_TEST_TYPE,
  type WebhookEventType,
  type WebhookPayload,
  type WebhookPerson,
  type WebhookSuppression,
} from "./events";
import type { OutboxEvent } from "./store";

type Person = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : null);

/** The person as the receiver reads them: their sealed columns opened. */
function personData(person: Person, dataKeys: DataKeys | null): WebhookPerson {
  const { email, name, answers } = personOf(dataKeys, {
    email: text(person["email"]),
    name: text(person["name"]),
    message: null,
    organization: null,
    why: null,
    connect: null,
    answers: (person["answers"] as Record<string, string> | null | undefined) ?? null,
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
    answers: mergedAnswers(answers, person["choices"]),
  };
}

/** The event's body, exactly as it is signed and sent (events.ts: its type). */
export function eventBody(event: OutboxEvent, dataKeys: DataKeys | null): string {
  const timestamp = event.occurredAt;
  let payload: WebhookPayload;
  if (event.type === WEBHOOK_TEST_TYPE) {
    payload = { type: WEBHOOK_TEST_TYPE, timestamp, data: { message: "A test event from the waitlist console." } };
  } else {
    const person = event.person ?? {};
    const data: Extract<WebhookPayload, { data: { id: unknown } }>["data"] = {
      id: event.waitlistId,
      ...personData(person, dataKeys),
    };
    const referred = person["referred"];
    if (referred && typeof referred === "object") data.referred = personData(referred as Person, dataKeys);
    const suppression = person["suppression"];
    if (suppression && typeof suppression === "object") data.suppression = suppression as WebhookSuppression;
    // The database writes the types (migration 0013); webhook-events.test.ts holds them equal to events.ts's.
    payload = { type: event.type as WebhookEventType, timestamp, data };
  }
  return JSON.stringify(payload);
}
