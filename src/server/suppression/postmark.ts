/**
 * Postmark's bounce and spam-complaint webhooks (https://postmarkapp.com/developer/webhooks/bounce-webhook,
 * spam-complaint-webhook), behind HTTP Basic with POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD (Postmark
 * puts them in the webhook's URL as `https://user:password@…`). Compared in constant time (hashes of equal length).
 * Permanent bounce types suppress at once; transient ones count as soft; the others (auto-responders, subscribe
 * requests…) say nothing about the address and are recorded as nothing. Idempotent by RecordType and ID. Postmark
 * signs no timestamp: a stale request cannot be told, and a retry hours later is still the same event, once.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Verified } from "./resend";
import type { MailEventKind } from "./store";

/** Postmark's bounce types that mean the address will never take mail. */
const PERMANENT = new Set(["HardBounce", "BadEmailAddress", "ManuallyDeactivated"]);
/** Types that mean "not now". */
const TRANSIENT = new Set(["SoftBounce", "Transient", "DnsError"]);

const digest = (value: string) => createHash("sha256").update(value).digest();
/** Whether two strings are equal, in time that does not depend on where they differ. */
export const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export function basicAuthorized(header: string | null, user: string, password: string): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
  const decoded = match ? Buffer.from(match[1] ?? "", "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  // Both compared whatever the first gave: the time says nothing about which one was wrong.
  const userOk = sameSecret(colon < 0 ? "" : decoded.slice(0, colon), user);
  const passwordOk = sameSecret(colon < 0 ? "" : decoded.slice(colon + 1), password);
  return colon >= 0 && userOk && passwordOk;
}

interface PostmarkRecord {
  RecordType?: unknown;
  ID?: unknown;
  Type?: unknown;
  MessageID?: unknown;
  Email?: unknown;
  Description?: unknown;
  Details?: unknown;
}

export function postmarkEvents(
  credentials: { user: string; password: string },
  headers: Headers,
  body: string,
): Verified {
  if (!basicAuthorized(headers.get("authorization"), credentials.user, credentials.password)) {
    return { status: 401, error: "Not authorized: HTTP Basic with the webhook's user and password." };
  }
  let record: PostmarkRecord;
  try {
    record = JSON.parse(body) as PostmarkRecord;
  } catch {
    return { status: 400, error: "Request body is not valid JSON." };
  }
  if (typeof record !== "object" || record === null) return { status: 400, error: "A record is a JSON object." };
  const recordType = record.RecordType;
  // Postmark's IDs are 64-bit: past 2^53 JSON.parse rounds them (4323372036854775807 → …6000), and two events would
  // share one key. The digits are read from the text as sent.
  const digits = /"ID"\s*:\s*(\d{1,20})\s*[,}]/.exec(body)?.[1];
  const id = digits ?? (typeof record.ID === "string" ? record.ID : "");
  const email = typeof record.Email === "string" ? record.Email : "";
  if ((recordType !== "Bounce" && recordType !== "SpamComplaint") || !id || !email.includes("@")) {
    return recordType === "Bounce" || recordType === "SpamComplaint"
      ? { status: 400, error: "A bounce or complaint has an ID and an Email." }
      : { events: [] };
  }
  const type = String(record.Type ?? "");
  const kind: MailEventKind | null =
    recordType === "SpamComplaint" || type === "SpamComplaint"
      ? "complaint"
      : PERMANENT.has(type)
        ? "hard_bounce"
        : TRANSIENT.has(type)
          ? "soft_bounce"
          : null;
  if (!kind) return { events: [] };
  const said = [record.Description, record.Details].filter((s) => typeof s === "string" && s).join(" ");
  return {
    events: [
      {
        provider: "postmark",
        eventId: `${String(recordType)}:${id}`,
        kind,
        messageIds: typeof record.MessageID === "string" ? [record.MessageID] : [],
        email,
        evidence: `${type} ${id}: ${said}`.slice(0, 500),
      },
    ],
  };
}
