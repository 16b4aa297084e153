/**
 * What happens when mail comes back, in one place for the SMTP server's answers and every provider's events: the
 * event is recorded once (by its provider's id: a retry changes nothing), counted against the update it belongs to,
 * and its address suppressed (the exact address, never every address of its mailbox: anyone can sign up someone's
 * `+tag` at a server that refuses it): at once for a hard bounce or a complaint, at the third soft bounce within 30
 * days. Its evidence names nobody (evidence.ts). A complaint also withdraws the person's consent to updates (a consent change whose words say its source). Then the
 * update it counts against is weighed: past the thresholds, its send pauses (pause.ts).
 */
import { audit } from "../audit";
import type { ServerConfig } from "../config";
import type { DatabaseKey } from "../crypto/keys";
import type { Db } from "../db/types";
import { addressKey } from "../mail/mailbox";
import { redactEvidence } from "./evidence";
import { pauseIfItMust } from "./pause";
import { createSuppressionStore, type MailEventKind, SOFT_BOUNCES, type SuppressionReason } from "./store";

/** One thing that came back, as every source tells it. */
export interface MailEvent {
  /** Who said it: `smtp`, `resend`, `postmark`, `ses`. */
  provider: string;
  /** The provider's id for this event (idempotency); for SMTP, the message's id. */
  eventId: string;
  kind: MailEventKind;
  /** The ids the event names the message by (Message-ID, the provider's message id): tried first. */
  messageIds: string[];
  /** The address it names: what is suppressed when the message recorded no address (or none is found). */
  email: string | null;
  /** The SMTP answer or the provider's words, kept as the suppression's evidence with no address in it. */
  evidence: string;
}

export type EventOutcome = "recorded" | "duplicate" | "unknown";

export interface RecordDeps {
  db: Db;
  /** The database's own secret: address keys must match waitlist.address_key's. */
  database: DatabaseKey;
  config: Pick<ServerConfig, "reputation">;
  /** Where an automatic pause is told (tests listen); default: nowhere. */
  onPause?: (updateId: number, why: string) => void;
}

const REASONS: Record<MailEventKind, SuppressionReason | null> = {
  hard_bounce: "hard_bounce",
  complaint: "complaint",
  soft_bounce: null,
};

/**
 * Records `event`: "duplicate" when its id was recorded already, "unknown" when it names no message recorded and no
 * address (nothing changes), else "recorded".
 */
export async function recordMailEvent(deps: RecordDeps, event: MailEvent): Promise<EventOutcome> {
  const list = createSuppressionStore(deps.db);
  const message = await list.message(event.messageIds);
  const address = message?.addressKey ?? (event.email ? addressKey(deps.database, event.email) : null);
  // A message sent before migration 0021 that names no address: only its mailbox is known, suppressed whole as then.
  const mailbox = address ? null : (message?.mailboxKey ?? null);
  const key = address ?? mailbox;
  if (!key) return "unknown";
  const updateId = message?.updateId ?? null;
  const evidence = `${event.provider}: ${redactEvidence(event.evidence, event.email)}`.slice(0, 1000);
  if (!(await list.event(event.provider, event.eventId, event.kind, key, updateId, evidence))) return "duplicate";

  let reason = REASONS[event.kind];
  if (!reason && (await list.softBounce(key, evidence)) >= SOFT_BOUNCES) reason = "soft_bounces";
  if (reason && (await list.suppress(key, reason, evidence, event.provider, mailbox !== null))) {
    await audit(deps.db, event.provider, "mail.suppressed", { reason, mailbox: key.slice(0, 12), update: updateId });
  }
  if (event.kind === "complaint") {
    const words = `withdrawn: a spam complaint (${event.provider})`;
    const withdrawn = await list.withdrawConsent(address, words, mailbox);
    if (withdrawn > 0) await audit(deps.db, event.provider, "updates.consent_withdrawn", { people: withdrawn });
  }
  if (updateId !== null) await pauseIfItMust(deps, updateId);
  return "recorded";
}
