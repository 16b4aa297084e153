/**
 * What a receiver is sent, as one type: the events' types and the keys of each event's `data`. The events are
 * written by the database (migration 0013's triggers), so the database decides them; this file says what it
 * decides, for the code and for the team's tools, and tests/integration/webhooks/webhook-events.test.ts makes each change
 * on a real database and holds the triggers' output equal to it (a type or a key added in SQL alone fails there).
 */

/** Each change to the list that the triggers record, in the order of a person's life on the list. */
export const WEBHOOK_EVENT_TYPES = [
  "waitlist.signed_up",
  "waitlist.confirmed",
  "waitlist.invited",
  "waitlist.joined",
  "waitlist.unsubscribed",
  "waitlist.referred",
  "waitlist.referral_revoked",
  "waitlist.removed",
  // Migration 0016's trigger on mail_suppression: the snapshot adds `suppression` (reason, source, suppressed_at).
  "waitlist.suppressed",
] as const;

/** "Send a test event" in the console: written by the server (webhooks/store.ts), with no person. */
export const WEBHOOK_TEST_TYPE = "webhook.test";

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The person as the trigger snapshots them (waitlist_webhook_person: sealed columns as stored), its keys in the
 * order the function builds them; `waitlist.referred` adds `referred`, the referred person's snapshot.
 */
export const SNAPSHOT_KEYS = [
  "email",
  "name",
  "status",
  "source",
  "medium",
  "campaign",
  "referrer",
  "page",
  "created_at",
  "referral_code",
  "referrals",
  "key_id",
  "sealed",
  // Migration 0022: the free-text answers as stored (null once sealed: they are in `sealed`) and the choices.
  "answers",
  "choices",
] as const;

export type WebhookSnapshot = Record<(typeof SNAPSHOT_KEYS)[number], unknown> & { referred?: WebhookSnapshot };

/** The person as a receiver reads them (deliver.ts opens the sealed columns and names the time). */
export interface WebhookPerson {
  email: string;
  name: string | null;
  status: unknown;
  source: unknown;
  medium: unknown;
  campaign: unknown;
  referrer: unknown;
  page: unknown;
  signed_up_at: string | null;
  referral_code: unknown;
  referrals: unknown;
  /** Their answers to the team's questions by id: text and choice as a string, `multiple` as a list; {}: none. */
  answers: Record<string, string | string[]>;
}

/** Why a `waitlist.suppressed` person is no longer mailed (src/server/suppression/). */
export interface WebhookSuppression {
  reason: "hard_bounce" | "complaint" | "soft_bounces" | "operator";
  source: string;
  suppressed_at: string;
}

/** A delivered body, `{"type", "timestamp", "data"}` per Standard Webhooks. */
export type WebhookPayload =
  | { type: typeof WEBHOOK_TEST_TYPE; timestamp: string; data: { message: string } }
  | {
      type: WebhookEventType;
      timestamp: string;
      data: { id: number | null } & WebhookPerson & { referred?: WebhookPerson; suppression?: WebhookSuppression };
    };
