/**
 * The e-mails sent to one address that asked for them (or signed up): each issues its tokens first, within the
 * mailbox's daily e-mails, and is undone when it cannot go. One flow (issueAndSend) for all of them; each e-mail
 * brings only what it issues, what it sends and how it is undone, to one `Recipient`.
 */
import { LINK_PATHS, MAILBOX_EMAILS_PER_DAY } from "../../lib/waitlist/consent";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import { newToken } from "../crypto/tokens";
import { describeError, log } from "../log";
import type { ConsentStore, ReferralStore } from "../store/types";
import { Suppressed } from "./guard";
import type { Mailer } from "./mailer";
import { confirmationEmail, REMINDER_PREFIX, removalEmail, statusEmail } from "./messages";

/** Who an e-mail goes to: the address, the site its links point to, and its mailbox's counter key. */
export interface Recipient {
  email: string;
  /** The site's origin (http/origin.ts): never the request's Host. */
  site: string;
  /** The key its mailbox's day is counted under (mail/mailbox.ts: countedMailboxKey). */
  mailboxKey: string;
}

/** An e-mail that issues tokens: what `kind` logs it as, how many `tokens` it needs, and its three steps. */
interface IssuedMail {
  kind: "confirmation" | "removal" | "status" | "reminder";
  tokens: number;
  /** Records the tokens' hashes when the address is due this e-mail: the issue's id; null, not now or not listed. */
  issue: (hashes: string[]) => Promise<number | null>;
  /** Sends the e-mail with the tokens themselves (only their hashes are kept). */
  send: (tokens: string[]) => Promise<unknown>;
  /** Drops the issue's tokens, the address due again. */
  undo: (id: number, hashes: string[]) => Promise<void>;
}

const link = (site: string, path: string, token: string) => `${site}${path}?token=${token}`;

/**
 * What became of an e-mail: sent; not due (one went out in the last 10 minutes, or the address is not in that
 * state); past its mailbox's e-mails for the day; suppressed (it bounced, complained, or an operator stopped it);
 * or failed (the SMTP server did not take it). Only the console reads it: it says which to the operator.
 */
export type SendOutcome = "sent" | "not-due" | "mailbox-limited" | "suppressed" | "failed";

/**
 * Issues `mail`'s tokens for `to` (the store says whether it is due an e-mail of this kind), counts the e-mail
 * against its mailbox's day, and sends it. Past MAILBOX_EMAILS_PER_DAY, or when the send fails, the issue is undone
 * (its tokens dropped, the address due again) and logged without the address. Never throws: it runs after the
 * answer, which is the same either way; what became of it is its outcome.
 */
async function issueAndSend(
  consent: Pick<ConsentStore, "mailboxSent">,
  to: Recipient,
  mail: IssuedMail,
): Promise<SendOutcome> {
  const { kind, issue, send, undo } = mail;
  const made = Array.from({ length: mail.tokens }, newToken);
  const hashes = made.map((t) => t.hash);
  let id: number | null = null;
  try {
    id = await issue(hashes);
    if (id === null) {
      log("info", `mail.${kind}_skipped`);
      return "not-due";
    }
    if ((await consent.mailboxSent(to.mailboxKey)) > MAILBOX_EMAILS_PER_DAY) {
      const issued = id;
      id = null;
      await undo(issued, hashes);
      log("warn", `mail.${kind}_mailbox_limited`);
      return "mailbox-limited";
    }
    await send(made.map((t) => t.token));
    log("info", `mail.${kind}_sent`);
    return "sent";
  } catch (error) {
    // A suppressed address (it bounced, complained, or an operator stopped it): not mailed, and its issue undone.
    const suppressed = error instanceof Suppressed;
    if (suppressed) log("info", `mail.${kind}_suppressed`);
    else log("error", `mail.${kind}_failed`, describeError(error));
    if (id !== null) {
      const issued = id;
      await undo(issued, hashes).catch((failure: unknown) =>
        log("error", "mail.unsend_failed", describeError(failure)),
      );
    }
    return suppressed ? "suppressed" : "failed";
  }
}

/** The confirmation, or the reminder to confirm (reminders/): the same e-mail, its subject saying which. */
type Confirmation = "confirmation" | "reminder";

/**
 * Sends the confirmation e-mail to a pending address, unless one went out in the last 10 minutes (or the
 * address is confirmed, or gone). A reminder is the same e-mail with fresh links, logged as its own kind.
 */
export function sendConfirmation(
  consent: ConsentStore,
  mailer: Mailer,
  to: Recipient,
  kind: Confirmation = "confirmation",
): Promise<SendOutcome> {
  return issueAndSend(consent, to, {
    kind,
    tokens: 2,
    issue: ([confirm = "", remove = ""]) => consent.issueConfirmation(to.email, confirm, remove),
    send: ([confirm = "", remove = ""]) =>
      mailer.send(
        to.email,
        confirmationEmail(
          {
            confirm: link(to.site, LINK_PATHS.confirm, confirm),
            remove: link(to.site, LINK_PATHS.remove, remove),
            site: to.site,
          },
          kind === "reminder" ? REMINDER_PREFIX : "",
        ),
      ),
    undo: (id, hashes) => consent.unsend(id, hashes, "confirm"),
  });
}

/** Sends a removal link to a listed address (at most one per 10 minutes); silently nothing otherwise. */
export function sendRemovalLink(consent: ConsentStore, mailer: Mailer, to: Recipient) {
  return issueAndSend(consent, to, {
    kind: "removal",
    tokens: 1,
    issue: ([remove = ""]) => consent.issueRemoval(to.email, remove),
    send: ([remove = ""]) =>
      mailer.send(to.email, removalEmail({ remove: link(to.site, LINK_PATHS.remove, remove), site: to.site })),
    undo: (id, hashes) => consent.unsend(id, hashes, "remove"),
  });
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
  to: Recipient,
  token: string,
) {
  try {
    if ((await consent.mailboxSent(to.mailboxKey)) > MAILBOX_EMAILS_PER_DAY)
      return log("warn", "mail.status_mailbox_limited");
    await mailer.send(to.email, statusEmail(statusLinks(to.site, token)));
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
  to: Recipient,
) {
  return issueAndSend(consent, to, {
    kind: "status",
    tokens: 1,
    issue: ([hash = ""]) => referrals.issueStatus(to.email, hash),
    send: ([token = ""]) => mailer.send(to.email, statusEmail(statusLinks(to.site, token))),
    undo: (id, hashes) => referrals.unsendStatus(id, hashes),
  });
}
