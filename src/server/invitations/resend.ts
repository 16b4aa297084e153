/**
 * An invitation sent again by the team (the console's person page), once per person: for someone whose e-mail went
 * astray or whose code ended. It carries a new code in the first e-mail's place (only codes' hashes are kept, so the
 * first cannot be sent again; a reminder's code, if any, keeps working beside it), good until the invitation's end
 * or INVITE_TTL_DAYS from now, whichever is later. Like every e-mail a person asks for, it counts against their
 * mailbox's daily e-mails (mail/send.ts), and goes through the guarded mailer (the suppression list).
 * Once: the claim is a row of mail_reminder (kind 'resend', migration 0025), written with the new code in one
 * statement; of two presses at once, one sends. An e-mail that does not go undoes it all (the first code back, the
 * claim gone), so the team can try again.
 */
import { LINK_PATHS, MAILBOX_EMAILS_PER_DAY, REMOVE_TTL_DAYS } from "../../lib/waitlist/consent";
import { newToken } from "../crypto/tokens";
import { describeError, log } from "../log";
import { Suppressed } from "../mail/guard";
import type { Mailer } from "../mail/mailer";
import { invitationEmail } from "../mail/messages";
import type { Store } from "../store/types";
import { newInviteCode } from "./invite-store";
import { inviteLink, statusLink } from "./links";

export const RESEND_SQL = {
  /**
   * Claims person `$1`'s one resend while they are invited, and stores the new code's hash `$2` (good until the
   * later of their invitation's end and `$3` days from now) with a leave link `$4` and a status link `$5`. Returns
   * the new end, and the first code and end (to put back should the e-mail not go); no row: not invited, or resent.
   */
  claim: `WITH claim AS (
      INSERT INTO mail_reminder (waitlist_id, kind)
      SELECT id, 'resend' FROM waitlist WHERE id = $1 AND status = 'invited'
      ON CONFLICT DO NOTHING RETURNING waitlist_id
    ), old AS (
      SELECT w.id, w.invite_code_hash, w.invite_expires_at, w.confirmed_at IS NOT NULL AS confirmed_by_link
      FROM waitlist w JOIN claim c ON c.waitlist_id = w.id
    ), person AS (
      UPDATE waitlist w SET invite_code_hash = $2,
        invite_expires_at = greatest(w.invite_expires_at, now() + make_interval(days => $3::int))
      FROM old WHERE w.id = old.id RETURNING w.id, w.invite_expires_at
    ), links AS (
      INSERT INTO waitlist_token (token_hash, waitlist_id, purpose, expires_at)
      SELECT $4::text, id, 'remove', now() + make_interval(days => ${REMOVE_TTL_DAYS}) FROM person
      UNION ALL
      SELECT $5::text, id, 'status', 'infinity' FROM person
    )
    SELECT p.invite_expires_at AS expires, o.invite_code_hash AS first_hash, o.invite_expires_at::text AS first_expires,
      o.confirmed_by_link
    FROM person p JOIN old o ON o.id = p.id`,
  /** The e-mail did not go: person `$1`'s first code `$3` and end `$4` back (unless `$2` was replaced since), links `$5` and the claim gone. */
  undo: `WITH restored AS (
      UPDATE waitlist SET invite_code_hash = $3, invite_expires_at = $4::timestamptz
      WHERE id = $1 AND invite_code_hash = $2 RETURNING id
    ), links AS (
      DELETE FROM waitlist_token WHERE waitlist_id = $1 AND token_hash = ANY($5::text[])
    )
    DELETE FROM mail_reminder WHERE waitlist_id = $1 AND kind = 'resend'`,
} as const;

export interface Resend {
  store: Store;
  /** The guarded mailer. */
  mailer: Mailer;
  person: { id: number; email: string };
  /** The key their mailbox's day is counted under (mail/mailbox.ts: countedMailboxKey). */
  mailboxKey: string;
  /** The product's sign-up page (earlyAccessBase). */
  accessUrl: URL;
  /** The site's origin, for the leave and status links. */
  site: string;
  ttlDays: number;
}

/**
 * What came of it: sent (the new end); refused before anything changed (already resent or no longer invited, the
 * mailbox's day spent); or not sent and undone (suppressed, the SMTP server refused it or could not be reached).
 */
export type ResendOutcome =
  | { outcome: "sent"; expires: string }
  | { outcome: "not-invited" | "mailbox-limited" | "suppressed" | "failed" };

const DAY_MS = 86_400_000;

export async function resendInvitation(r: Resend): Promise<ResendOutcome> {
  const { store, person } = r;
  if ((await store.consent.mailboxSent(r.mailboxKey)) > MAILBOX_EMAILS_PER_DAY) {
    log("warn", "mail.invitation_again_mailbox_limited");
    return { outcome: "mailbox-limited" };
  }
  const { code, hash } = newInviteCode();
  const [leave, status] = [newToken(), newToken()];
  // The first end as the database wrote it (text: to the microsecond, which a Date would cut to the millisecond).
  type Claimed = {
    expires: unknown;
    first_hash: string | null;
    first_expires: string | null;
    confirmed_by_link: boolean;
  };
  const [claimed] = await store.db.query<Claimed>(RESEND_SQL.claim, [
    person.id,
    hash,
    r.ttlDays,
    leave.hash,
    status.hash,
  ]);
  if (!claimed) return { outcome: "not-invited" };
  const expires = new Date(claimed.expires as string);
  try {
    await r.mailer.send(
      person.email,
      invitationEmail({
        access: inviteLink(r.accessUrl, code),
        remove: `${r.site}${LINK_PATHS.remove}?token=${leave.token}`,
        status: statusLink(r.site, status.token),
        site: r.site,
        ttlDays: Math.max(1, Math.ceil((expires.getTime() - Date.now()) / DAY_MS)),
        confirmedByLink: Boolean(claimed.confirmed_by_link),
      }),
    );
  } catch (error) {
    const suppressed = error instanceof Suppressed;
    log(suppressed ? "info" : "error", "mail.invitation_again_failed", describeError(error));
    const first = [claimed.first_hash, claimed.first_expires];
    await store.db.query(RESEND_SQL.undo, [person.id, hash, ...first, [leave.hash, status.hash]]);
    return { outcome: suppressed ? "suppressed" : "failed" };
  }
  log("info", "mail.invitation_again_sent");
  return { outcome: "sent", expires: expires.toISOString() };
}
