/**
 * The team sends an invited person's invitation again (invitations/resend.ts), from their page: audited before it
 * starts; refused, with the reason, when it was sent again already, when they are not invited, when their mailbox
 * has had its e-mails for the day, or when their address is suppressed.
 */
import { MAILBOX_EMAILS_PER_DAY } from "../../../lib/waitlist/consent";
import { auditStart } from "../../audit";
import { rootKey } from "../../crypto/keys";
import { seeOther } from "../../http/responses";
import { earlyAccessBase, InviteConfigError, resendInvitation } from "../../invitations";
import { countedMailboxKey } from "../../mail/mailbox";
import { nobody, type PersonVisit, personPage } from "./person";
import { readPersonFile } from "./person-data";
import { alreadySaid, resentAt } from "./person-resend";
import { personHref } from "./person-timeline";

const REFUSED = {
  "not-invited": "Not sent: they were sent it again a moment ago, or are no longer invited.",
  "mailbox-limited": `Not sent: their mailbox has had its ${MAILBOX_EMAILS_PER_DAY} e-mails from the waitlist today, the most it gets in a day. Try again tomorrow (UTC).`,
  suppressed:
    "Not sent: their address is suppressed (see Mail below), so no e-mail goes to it. Nothing changed: lift it first if they ask for the e-mail.",
  failed: "Not sent: the SMTP server refused it or could not be reached. Nothing changed: you can try again.",
} as const;

/** EARLY_ACCESS_URL checked, or the person's page saying why it cannot be used (nothing changed): for Invite now too. */
export function earlyAccessOrPage(visit: PersonVisit, idText: string): URL | Promise<Response> {
  try {
    return earlyAccessBase(visit.config.earlyAccessUrl);
  } catch (error) {
    if (error instanceof InviteConfigError) return personPage(visit, idText, error.message, true);
    throw error;
  }
}

/** POST /admin/person with action=resend-invitation, for person `id`. */
export async function resendAction(visit: PersonVisit, id: number): Promise<Response> {
  const { store, config, admin } = visit;
  const file = await readPersonFile(store, id, config.dbTimeoutMs);
  if (!file) return nobody(admin);
  const idText = String(id);
  const at = resentAt(file);
  if (at) return personPage(visit, idText, alreadySaid(at), true);
  if (file.row.status !== "invited") {
    return personPage(visit, idText, "Only someone invited, not yet joined, can be sent their invitation again.", true);
  }
  if (!visit.mailer) return personPage(visit, idText, "E-mail is off: the invitation cannot be sent again.", true);
  const accessUrl = earlyAccessOrPage(visit, idText);
  if (accessUrl instanceof Promise) return accessUrl;
  const entry = await auditStart(store.db, admin, "resend-invitation", { person: id });
  const root = await rootKey(config, store);
  const result = await resendInvitation({
    store,
    mailer: visit.mailer,
    person: { id, email: file.person.email },
    mailboxKey: countedMailboxKey(root, file.person.email),
    accessUrl,
    site: visit.origin,
    ttlDays: config.inviteTtlDays,
  });
  await entry.end({ person: id, outcome: result.outcome });
  if (result.outcome === "sent") return seeOther(`${personHref(id)}&done=reinvited`);
  return personPage(visit, idText, REFUSED[result.outcome], true);
}
