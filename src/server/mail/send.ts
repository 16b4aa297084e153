import { LINK_PATHS } from "../../lib/waitlist/consent";
import { type ConsentStore, newToken } from "../consent-store";
import { describeError, log } from "../log";
import type { Mailer } from "./mailer";
import { confirmationEmail, removalEmail } from "./messages";

const link = (site: string, path: string, token: string) => `${site}${path}?token=${token}`;

/**
 * Sends the confirmation e-mail to a pending address, unless one went out in the last 10 minutes (or the
 * address is confirmed, or gone). A failed send is undone (its tokens dropped) so a repeat sends again, and
 * logged without the address. Never throws: it runs after the answer.
 */
export async function sendConfirmation(consent: ConsentStore, mailer: Mailer, email: string, site: string) {
  const confirm = newToken();
  const remove = newToken();
  let id: number | null = null;
  try {
    id = await consent.issueConfirmation(email, confirm.hash, remove.hash);
    if (id === null) return log("info", "mail.confirmation_skipped");
    await mailer.send(
      email,
      confirmationEmail({
        confirm: link(site, LINK_PATHS.confirm, confirm.token),
        remove: link(site, LINK_PATHS.remove, remove.token),
        site,
      }),
    );
    log("info", "mail.confirmation_sent");
  } catch (error) {
    log("error", "mail.confirmation_failed", describeError(error));
    if (id !== null) {
      await consent.unsend(id, [confirm.hash, remove.hash], "confirm").catch((undo: unknown) => {
        log("error", "mail.unsend_failed", describeError(undo));
      });
    }
  }
}

/** Sends a removal link to a listed address (at most one per 10 minutes); silently nothing otherwise. */
export async function sendRemovalLink(consent: ConsentStore, mailer: Mailer, email: string, site: string) {
  const remove = newToken();
  let id: number | null = null;
  try {
    id = await consent.issueRemoval(email, remove.hash);
    if (id === null) return log("info", "mail.removal_skipped");
    await mailer.send(email, removalEmail({ remove: link(site, LINK_PATHS.remove, remove.token), site }));
    log("info", "mail.removal_sent");
  } catch (error) {
    log("error", "mail.removal_failed", describeError(error));
    if (id !== null) {
      await consent.unsend(id, [remove.hash], "remove").catch((undo: unknown) => {
        log("error", "mail.unsend_failed", describeError(undo));
      });
    }
  }
}
