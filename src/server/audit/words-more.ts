/**
 * The sentences of the audit actions beyond a person's page and a wave (but an invitation sent again from it): the People list's bulk actions, webhooks,
 * the mail's own events (a provider suppressing an address, an update pausing by itself), the product's token (the
 * export API, an invitation redeemed) and the CLI's commands. With words.ts, every action the code writes.
 */
import { counted } from "../../lib/plural";
import { type AuditNames, type Details, numberIn, people, textIn, updateName } from "./names";

type Say = (d: Details, names: AuditNames) => string;

/** A webhook event by its type, in words (webhooks/events.ts names the types). */
const EVENT_WORDS: Record<string, string> = {
  "waitlist.signed_up": "a sign-up",
  "waitlist.confirmed": "a confirmation",
  "waitlist.invited": "an invitation",
  "waitlist.joined": "someone joining",
  "waitlist.unsubscribed": "someone stopping updates",
  "waitlist.referred": "a referral",
  "waitlist.referral_revoked": "a referral taken back",
  "waitlist.removed": "a removal",
  "waitlist.suppressed": "an address suppressed",
  "webhook.test": "a test",
};

const eventName = (d: Details, names: AuditNames) => {
  const type = names.events.get(textIn(d, "event") ?? "");
  return type ? `the webhook event of ${EVENT_WORDS[type] ?? type}` : "a webhook event";
};

const REASONS: Record<string, string> = {
  hard_bounce: "their server refused it for good (a hard bounce)",
  complaint: "an e-mail was marked as spam (a complaint)",
  soft_bounces: "their server said “not now” three times within 30 days",
};

const REDEEMED: Record<string, string> = {
  joined: "A person joined the product with their invitation code",
  used: "An invitation code was tried again after it was used: refused",
  expired: "An expired invitation code was tried: refused",
  unknown: "A code that is no invitation was tried: refused",
  "no-server-secret": "A status page's code was tried while SERVER_SECRET is not set: refused",
};

/** Invite selected (People: people-bulk.tsx): a wave of the people ticked who were still waiting. */
function inviteSelected(d: Details, names: AuditNames): string {
  const selected = numberIn(d, "selected") ?? 0;
  const waiting = numberIn(d, "invitable") ?? selected;
  const row = names.waves.get(numberIn(d, "wave") ?? -1);
  const background = d["background"] !== undefined;
  if (background && !row?.finished) {
    const sofar = row ? `: ${counted(row.invited, "invited", "invited")} so far` : "";
    return `Started inviting ${people(waiting)} of ${counted(selected, "person", "people")} selected, by e-mail${sofar}`;
  }
  const invited = background && row ? row.invited : (numberIn(d, "invited") ?? 0);
  const all =
    invited === selected
      ? `Invited the ${people(selected)} selected`
      : `Invited ${people(invited)} of ${counted(selected, "person", "people")} selected`;
  const notWaiting = selected - waiting > 0 ? `; ${counted(selected - waiting, "was", "were")} not waiting` : "";
  const refused = numberIn(d, "refused") ?? 0;
  return `${all}${notWaiting}${refused > 0 ? `; ${counted(refused, "e-mail was", "e-mails were")} refused` : ""}`;
}

/** Why the team's resend of an invitation (console/person/person-resend-action.tsx) did not go. */
const NOT_RESENT: Record<string, string> = {
  "not-invited": "they were no longer invited, or it had just been sent again",
  "mailbox-limited": "their mailbox had had its e-mails for the day",
  suppressed: "their address is suppressed",
  failed: "the SMTP server refused it or could not be reached",
};

export const MORE_ACTIONS: Record<string, Say> = {
  "resend-invitation": (d) =>
    d["outcome"] === "sent"
      ? "Sent an invited person their invitation again, with a new code"
      : `Tried to send an invited person their invitation again: not sent, ${NOT_RESENT[String(d["outcome"])] ?? "it did not go"}`,
  "invite-selected": inviteSelected,
  "remove-selected": (d) => {
    const [selected, removed] = [numberIn(d, "selected") ?? 0, numberIn(d, "removed")];
    if (removed === null || removed === selected) return `Removed the ${people(selected)} selected from the list`;
    return `Removed ${people(removed)} of ${counted(selected, "person", "people")} selected from the list; the rest had left already`;
  },
  "webhook-retry": (d, names) =>
    d["queued"] === false
      ? `Asked to retry ${eventName(d, names)}: it was delivered already or no longer exists, so nothing was sent`
      : `Retried ${eventName(d, names)} now`,
  "webhook-test": () => "Sent a test webhook event",
  "webhooks-resume": () => "Resumed webhook deliveries",
  "webhooks-drain": (d) => {
    const waiting = numberIn(d, "waiting");
    return `Started delivering every waiting webhook event now${waiting === null ? "" : ` (${counted(waiting, "event")})`}`;
  },
  "webhooks-off": () => "Stopped recording webhook events, from the command line",
  "webhooks-deliver": (d) => {
    const [delivered, retrying] = [numberIn(d, "delivered"), numberIn(d, "retrying") ?? 0];
    if (delivered === null) return "Delivered the waiting webhook events from the command line";
    const again = retrying > 0 ? `; ${counted(retrying, "is", "are")} to be tried again` : "";
    return `Delivered ${counted(delivered, "waiting webhook event")} from the command line${again}`;
  },
  "mail.lifted": () => "Lifted a person's mail suppression: the product's e-mails reach them again",
  "mail.suppressed": (d, names) => {
    if (d["reason"] === "operator") return "Stopped all mail to a person";
    const update = numberIn(d, "update");
    const after = update === null ? "" : `, after ${updateName(update, names)}`;
    return `Stopped all mail to an address: ${REASONS[String(d["reason"])] ?? "it came back"}${after}`;
  },
  "updates.consent_withdrawn": (d) =>
    `Stopped updates for ${people(numberIn(d, "people") ?? 0)} after their spam complaint`,
  "updates.paused": (d, names) => {
    const why = (textIn(d, "why") ?? "").replace(/^Paused by itself: /, "").replace(/\.$/, "");
    return `Paused ${updateName(numberIn(d, "update"), names)} by itself${why ? `: ${why}` : ""}`;
  },
  "invite.redeem": (d) => REDEEMED[String(d["outcome"])] ?? "An invitation code was tried",
  reminders: (d) => {
    const [sent, invites] = [numberIn(d, "sent") ?? 0, numberIn(d, "invites") ?? 0];
    return `Sent ${counted(sent, "reminder")} to confirm and ${counted(invites, "reminder")} of an invitation`;
  },
  encrypt: () => "Sealed the list's personal data with the data key (DATA_KEY), from the command line",
  "purge-pending": (d) => {
    const [purged, hours] = [numberIn(d, "purged"), numberIn(d, "olderThanHours")];
    const older = hours === null ? "" : ` older than ${counted(hours, "hour")}`;
    if (purged === null) return `Started deleting the pending sign-ups${older}`;
    // The command line's end says how it exited; the schedule's entry (netlify/functions/purge-pending.ts) does not.
    const by = d["exit"] === undefined ? ", as PURGE_PENDING_AFTER_DAYS asks" : ", from the command line";
    return `Deleted ${counted(purged, "pending sign-up")}${older}${by}`;
  },
};
