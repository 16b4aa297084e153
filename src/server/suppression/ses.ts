/**
 * Amazon SES's bounce and complaint notifications, through an SNS topic's HTTPS subscription. Verified by a small
 * verifier of ours, held to AWS's documented string-to-sign ("Verifying the signatures of Amazon SNS messages"):
 * the fields' names and values, each followed by a line break, in byte order: Message, MessageId, Subject (if
 * present), Timestamp, TopicArn, Type for a Notification; Message, MessageId, SubscribeURL, Timestamp, Token,
 * TopicArn, Type for a (Un)SubscriptionConfirmation. SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA, with the
 * public key of the certificate at SigningCertURL, fetched only from where SNS keeps them (sns-certificates.ts: so
 * a forged message cannot bring its own key) and kept in a small LRU. Everything a message can be judged by without
 * its certificate is judged first (its type, topic, shape and age), so junk never costs a fetch. (`sns-validator`,
 * AWS's own, cannot be given a test certificate; `fetch` is injectable here so tests sign with theirs, offline.)
 * Only SES_SNS_TOPIC_ARN is accepted, and its SubscriptionConfirmation is confirmed (its SubscribeURL fetched, same
 * host rule) only when verified. Over 5 minutes old: refused, as the other providers' signatures are.
 */
import { createVerify, type X509Certificate } from "node:crypto";
import type { MailEvent } from "./record";
import type { Verified } from "./resend";
import { isSnsCertificateUrl, isSnsUrl, snsCertificate } from "./sns-certificates";

/** How old a signed message may be. */
export const MAX_AGE_MS = 5 * 60 * 1000;
/** An RSA signature in base64: 1024- to 4096-bit keys (SNS's are 2048: 344 characters). */
const SIGNATURE = /^[A-Za-z0-9+/]{170,684}={0,2}$/;

type SnsMessage = Record<string, unknown>;

const FIELDS: Record<string, string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** AWS's string to sign for `message`; null for a type SNS does not send. */
export function stringToSign(message: SnsMessage): string | null {
  const fields = FIELDS[String(message["Type"])];
  if (!fields) return null;
  return fields
    .filter((name) => !(name === "Subject" && typeof message[name] !== "string"))
    .map((name) => `${name}\n${String(message[name] ?? "")}\n`)
    .join("");
}

export interface SnsOptions {
  topicArn: string;
  /** How certificates and SubscribeURLs are fetched (tests serve their own, offline). */
  fetch?: typeof fetch;
  now?: () => number;
}

type Refusal = { status: 400 | 401; error: string };

/**
 * Why `message` is refused before its certificate is fetched (its type, signature's shape, topic, fields and age,
 * and where its certificate is), or null when only the signature is left to check.
 */
function refusedUnfetched(message: SnsMessage, options: SnsOptions, now: number): Refusal | null {
  const fields = FIELDS[String(message["Type"])];
  if (!fields) return { status: 400, error: "Not an SNS message type." };
  const version = String(message["SignatureVersion"] ?? "");
  const signature = message["Signature"];
  if ((version !== "1" && version !== "2") || typeof signature !== "string" || !SIGNATURE.test(signature))
    return { status: 401, error: "Unsigned: SignatureVersion 1 or 2 and a Signature are required." };
  if (message["TopicArn"] !== options.topicArn) return { status: 401, error: "Not the topic this site listens to." };
  const missing = fields.filter((name) => name !== "Subject" && typeof message[name] !== "string");
  if (missing.length > 0) return { status: 400, error: `Not an SNS message: no ${missing.join(", ")}.` };
  const at = Date.parse(String(message["Timestamp"]));
  if (!Number.isFinite(at) || Math.abs(now - at) > MAX_AGE_MS)
    return { status: 400, error: "Stale: more than 5 minutes old." };
  if (!isSnsCertificateUrl(message["SigningCertURL"]))
    return { status: 401, error: "The signing certificate is not at an sns.<region>.amazonaws.com address." };
  return null;
}

/** Null when `message` is SNS's, signed and fresh, for our topic; else why not (401/400). */
async function verify(message: SnsMessage, options: SnsOptions): Promise<Refusal | null> {
  const now = (options.now ?? Date.now)();
  const refused = refusedUnfetched(message, options, now);
  if (refused) return refused;
  let cert: X509Certificate;
  try {
    cert = await snsCertificate(String(message["SigningCertURL"]), options.fetch ?? fetch);
  } catch {
    return { status: 401, error: "The signing certificate could not be read." };
  }
  if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo))
    return { status: 401, error: "The signing certificate has expired." };
  const algorithm = message["SignatureVersion"] === "1" ? "RSA-SHA1" : "RSA-SHA256";
  const ok = createVerify(algorithm)
    .update(stringToSign(message) ?? "", "utf8")
    .verify(cert.publicKey, String(message["Signature"]), "base64");
  return ok ? null : { status: 401, error: "Not verified: the signature does not match." };
}

interface SesRecipient {
  emailAddress?: unknown;
  diagnosticCode?: unknown;
  status?: unknown;
}
interface SesNotification {
  notificationType?: unknown;
  eventType?: unknown;
  bounce?: { bounceType?: unknown; bounceSubType?: unknown; bouncedRecipients?: SesRecipient[] };
  complaint?: { complainedRecipients?: SesRecipient[]; complaintFeedbackType?: unknown };
  mail?: { messageId?: unknown; commonHeaders?: { messageId?: unknown } };
}

/** SES's notification (or event publishing's record) as the events it holds. */
function sesEvents(snsId: string, body: string): MailEvent[] | null {
  let note: SesNotification;
  try {
    note = JSON.parse(body) as SesNotification;
  } catch {
    return null;
  }
  const type = note.notificationType ?? note.eventType;
  const ids = [note.mail?.messageId, note.mail?.commonHeaders?.messageId].filter(
    (v): v is string => typeof v === "string",
  );
  const each = (
    recipients: SesRecipient[] | undefined,
    make: (r: SesRecipient) => Omit<MailEvent, "eventId" | "provider" | "messageIds" | "email">,
  ) =>
    (recipients ?? []).flatMap((r, i) =>
      typeof r.emailAddress === "string"
        ? [{ provider: "ses", eventId: `${snsId}#${i}`, messageIds: ids, email: r.emailAddress, ...make(r) }]
        : [],
    );
  if (type === "Bounce") {
    const bounceType = String(note.bounce?.bounceType ?? "");
    const sub = String(note.bounce?.bounceSubType ?? "");
    // Permanent: the address is gone (or on SES's own suppression list). Transient and Undetermined: not now.
    return each(note.bounce?.bouncedRecipients, (r) => ({
      kind: bounceType === "Permanent" ? "hard_bounce" : "soft_bounce",
      evidence: `Bounce ${bounceType}/${sub}: ${String(r.diagnosticCode ?? r.status ?? "")}`.slice(0, 500),
    }));
  }
  if (type === "Complaint") {
    const feedback = String(note.complaint?.complaintFeedbackType ?? "abuse");
    return each(note.complaint?.complainedRecipients, () => ({ kind: "complaint", evidence: `Complaint ${feedback}` }));
  }
  return [];
}

/**
 * The request as events to record, or its refusal. A verified SubscriptionConfirmation for our topic is confirmed
 * here (its SubscribeURL fetched) and yields no events.
 */
export async function snsEvents(options: SnsOptions, body: string): Promise<Verified> {
  let message: SnsMessage;
  try {
    message = JSON.parse(body) as SnsMessage;
  } catch {
    return { status: 400, error: "Request body is not valid JSON." };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message))
    return { status: 400, error: "An SNS message is a JSON object." };
  const refused = await verify(message, options);
  if (refused) return refused;
  if (message["Type"] === "SubscriptionConfirmation") {
    if (!isSnsUrl(message["SubscribeURL"])) return { status: 400, error: "The SubscribeURL is not at an SNS address." };
    const answer = await (options.fetch ?? fetch)(String(message["SubscribeURL"]), {
      redirect: "error",
      signal: AbortSignal.timeout(5000),
    });
    if (!answer.ok) return { status: 400, error: `The subscription was not confirmed: HTTP ${answer.status}.` };
    return { events: [] };
  }
  if (message["Type"] !== "Notification") return { events: [] };
  const events = sesEvents(String(message["MessageId"]), String(message["Message"]));
  return events ? { events } : { status: 400, error: "The notification's Message is not SES's JSON." };
}
