/**
 * One person's invitation by e-mail, within a wave (wave.ts): their code and links made, the e-mail sent, and what
 * became of it. Only the SMTP server's acceptance, heard, lets the wave mark them invited.
 */
import { LINK_PATHS } from "../../lib/waitlist/consent";
import { newToken } from "../crypto/tokens";
import type { Mailer } from "../mail/mailer";
import { invitationEmail } from "../mail/messages";
import type { Store, WaveMember } from "../store/types";
import { isRefusal, NoLongerHeld, reason } from "./delivery";
import { newInviteCode } from "./invite-store";
import { inviteLink, statusLink } from "./links";

/** What the e-mail's links are made from (a wave's options). */
export interface InvitationLinks {
  store: Store;
  /** The product's sign-up page (earlyAccessBase). */
  accessUrl: URL;
  /** The site's origin, for the leave link. */
  siteUrl: string;
  ttlDays: number;
}

/**
 * Accepted: the server took it; refused: the server said no (they stay confirmed); skipped: no longer the wave's
 * (they left, or another run holds them); stopped: the server could not be used, and the wave stops.
 */
export type Mailed = "accepted" | "refused" | "skipped" | { stopped: string };

/** Mails `person` their invitation for wave `wave`; their code is released again unless the server accepted it. */
export async function mailInvitation(
  wave: number,
  person: WaveMember,
  mailer: Mailer,
  links: InvitationLinks,
): Promise<Mailed> {
  const { store, accessUrl, siteUrl, ttlDays } = links;
  const { code, hash } = newInviteCode();
  const [leave, status] = [newToken(), newToken()];
  if (!(await store.invites.prepare(wave, person.id, hash, ttlDays, leave.hash, status.hash))) return "skipped";
  try {
    await mailer.send(
      person.email,
      invitationEmail({
        access: inviteLink(accessUrl, code),
        remove: `${siteUrl}${LINK_PATHS.remove}?token=${leave.token}`,
        status: statusLink(siteUrl, status.token),
        site: siteUrl,
        ttlDays,
        confirmedByLink: person.confirmedByLink,
      }),
      // Checked and noted once the server has answered DATA, just before the message's last byte goes: someone
      // who left meanwhile (even while the server weighed their RCPT TO) is not mailed, and a code whose e-mail
      // may be accepted from now on already redeems. The note invites nobody.
      {
        beforeCommit: async () => {
          if (!(await store.invites.attempted(wave, person.id))) throw new NoLongerHeld("left the wave");
        },
      },
    );
    return "accepted";
  } catch (error) {
    await store.invites.release(wave, person.id, [leave.hash, status.hash]);
    if (error instanceof NoLongerHeld) return "skipped";
    return isRefusal(error) ? "refused" : { stopped: reason(error) };
  }
}
