import { LINK_PATHS, MAILBOX_EMAILS_PER_DAY } from "../../lib/waitlist/consent";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import { newToken } from "../crypto/tokens";
import { describeError, log } from "../log";
import type { ConsentStore, ReferralStore } from "../store/types";
import { Suppressed } from "./guard";
import type { Mailer } from "./mailer";
import { confirmationEmail, removalEmail, statusEmail } from "./messages";

const link = (site: string, path: string, token: string) => `${site}${path}?token=${token}`;

/**
 * Issues tokens for `email` (the store says whether it is due an e-mail of this `kind`; null: not now, or not
 * listed), counts the e-mail against its mailbox's day (`mailboxKey`), and sends the message made with them.
 * Past MAILBOX_EMAILS_PER_DAY, or when the send fails, the issue is undone (its tokens dropped, the address due
 * again) and logged without the address. Never throws: it runs after the answer, which is the same either way.
 */
export async function issueAndSend(
  kind: "confirmation" | "removal" | "status" | "reminder",
  tokens: number,
  consent: Pick<ConsentStore, "mailboxSent">,
  mailboxKey: string,
  issue: (hashes: string[]) => Promise<number | null>,
  send: (links: string[]) => Promise<unknown>,
  undo: (id: number, hashes: string[]) => Promise<void>,
) {
  const made = Array.from({ length: tokens }, newToken);
  const hashes = made.map((t) => t.hash);
  let id: number | null = null;
  try {
    id = await issue(hashes);
    if (id === null) return log("info", `mail.${kind}_skipped`);
    if ((await consent.mailboxSent(mailboxKey)) > MAILBOX_EMAILS_PER_DAY) {
      const issued = id;
      id = null;
      await undo(issued, hashes);
      return log("warn", `mail.${kind}_mailbox_limited`);
    }
    await send(made.map((t) => t.token));
    log("info", `mail.${kind}_sent`);
  } catch (error) {
    // A suppressed address (it bounced, complained, or an operator stopped it): not mailed, and its issue undone.
    if (error instanceof Suppressed) log("info", `mail.${kind}_suppressed`);
    else log("error", `mail.${kind}_failed`, describeError(error));
    if (id !== null) {
      const issued = id;
      await undo(issued, hashes).catch((failure: unknown) =>
        log("error", "mail.unsend_failed", describeError(failure)),
      );
    }
  }
}

/**
 * Sends the confirmation e-mail to a pending address, unless one went out in the last 10 minutes (or the
 * address is confirmed, or gone).
 */
export function sendConfirmation(
  consent: ConsentStore,
  mailer: Mailer,
  email: string,
  site: string,
  mailboxKey: string,
) {
  return issueAndSend(
    "confirmation",
    2,
    consent,
    mailboxKey,
    ([confirm = "", remove = ""]) => consent.issueConfirmation(email, confirm, remove),
    ([confirm = "", remove = ""]) =>
      mailer.send(
        email,
        confirmationEmail({
          confirm: link(site, LINK_PATHS.confirm, confirm),
          remove: link(site, LINK_PATHS.remove, remove),
          site,
        }),
      ),
    (id, hashes) => consent.unsend(id, hashes, "confirm"),
  );
}

/** Sends a removal link to a listed address (at most one per 10 minutes); silently nothing otherwise. */
export function sendRemovalLink(
  consent: ConsentStore,
  mailer: Mailer,
  email: string,
  site: string,
  mailboxKey: string,
) {
  return issueAndSend(
    "removal",
    1,
    consent,
    mailboxKey,
    ([remove = ""]) => consent.issueRemoval(email, remove),
    ([remove = ""]) => mailer.send(email, removalEmail({ remove: link(site, LINK_PATHS.remove, remove), site })),
    (id, hashes) => consent.unsend(id, hashes, "remove"),
  );
}

const statusLinks = (site: string, token: string) => ({
  status: link(site, STATUS_PATHS.page, token),
  remove: `${site}${LINK_PATHS.request}`,
  site,
});

/**
 * Sends a person who has just confirmed the link to their status page (its token issued by the confirmation),
 * within their mailbox's daily e-mails: past them, the page the confirmation led to has shown it already.
 */
export async function sendStatusEmail(
  consent: Pick<ConsentStore, "mailboxSent">,
  mailer: Mailer,
  email: string,
  site: string,
  token: string,
  mailboxKey: string,
) {
  try {
    if ((await consent.mailboxSent(mailboxKey)) > MAILBOX_EMAILS_PER_DAY)
      return log("warn", "mail.status_mailbox_limited");
    await mailer.send(email, statusEmail(statusLinks(site, token)));
    log("info", "mail.status_sent");
  } catch (error) {
    if (error instanceof Suppressed) log("info", "mail.status_suppressed");
    else log("error", "mail.status_failed", describeError(error));
  }
}

/** Mails a listed, confirmed address a new link to its status page (at most one per 10 minutes); else nothing. */
export function sendStatusLink(
  consent: Pick<ConsentStore, "mailboxSent">,
  referrals: Pick<ReferralStore, "issueStatus" | "unsendStatus">,
  mailer: Mailer,
  email: string,
  site: string,
  mailboxKey: string,
) {
  return issueAndSend(
    "status",
    1,
    consent,
    mailboxKey,
    ([hash = ""]) => referrals.issueStatus(email, hash),
    ([token = ""]) => mailer.send(email, statusEmail(statusLinks(site, token))),
    (id, hashes) => referrals.unsendStatus(id, hashes),
  );
}
