/**
 * The one door every e-mail to a person goes through: a mailer guarded by the suppression list. Every sender gets
 * its mailer through `guardedMailer` (the handlers, the waves, the updates, the CLI), so none can forget the list:
 * an address that bounced hard, complained, bounced softly three times in 30 days or was suppressed by an operator
 * is never handed to the SMTP server (the send throws `Suppressed`, a `NoLongerHeld`: each sender already skips
 * those). What the server answers for one address is told back to the list (a hard or soft bounce, with its
 * answer), and each accepted message is recorded with its Message-ID and the server's own id, so a provider's
 * later event names it. Only the console's own e-mails to the team (sign-in link, a test to oneself) pass
 * unguarded, each marked `team: true` where it is made (messages.ts).
 */
import { randomUUID } from "node:crypto";
import { describeError, log } from "../log";
import type { Mailer, MailMessage, SendOptions, SentInfo } from "./mailer";
import { NoLongerHeld } from "./outcome";

const logged = (event: string) => (error: unknown) => log("error", event, describeError(error));

/** Thrown instead of sending to a suppressed address: the sender skips it as it skips anyone no longer held. */
export class Suppressed extends NoLongerHeld {
  override name = "Suppressed";
}

/** What the server said for one address, as the list records it. */
export interface Bounce {
  kind: "hard_bounce" | "soft_bounce";
  /** The server's answer, word for word (`550 5.1.1 user unknown`): the evidence. */
  answer: string;
}

/** What the guard asks of the suppression list (src/server/suppression/ provides it). */
export interface MailGuard {
  /** Whether this address's mailbox must not be mailed. */
  suppressed(email: string): Promise<boolean>;
  /** The message was accepted: its Message-ID and the server's id (from its 250 answer) are recorded. */
  accepted(email: string, message: MailMessage, ids: { messageId: string; providerId: string | null }): Promise<void>;
  /** The server refused this address: a hard or soft bounce. */
  bounced(email: string, message: MailMessage, bounce: Bounce): Promise<void>;
}

interface SmtpFailure {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
}

/**
 * What an SMTP failure says about one address, or null when it says nothing about it (the account, the connection,
 * the content). At RCPT TO: a 5xx is a hard bounce, a 4xx but 421 a soft one. For the message (its final answer):
 * only an answer whose enhanced status is about the mailbox (x.1.x address, x.2.x mailbox: `550 5.1.1`, `452
 * 4.2.2`), as servers that check recipients after DATA give; a policy refusal (5.7.x) of the content is the
 * message's fault, not the address's, and must not suppress a whole list.
 */
export function bounceOf(error: unknown): Bounce | null {
  const { code, command, responseCode, response } = (error ?? {}) as SmtpFailure;
  if (typeof responseCode !== "number" || responseCode < 400 || responseCode >= 600 || responseCode === 421)
    return null;
  if (code === "ECONNECTION" || code === "EAUTH") return null;
  const answer = (response ?? String(responseCode)).trim().slice(0, 500);
  const kind = responseCode >= 500 ? "hard_bounce" : "soft_bounce";
  if (command === "RCPT TO") return { kind, answer };
  if (command === "DATA" && code === "EMESSAGE" && /^\d{3}[ -]+[45]\.[12]\.\d{1,3}\b/.test(answer)) {
    return { kind, answer };
  }
  return null;
}

/** The id a provider's SMTP server gives the message in its 250 answer (`250 Ok <id>`, `250 2.0.0 OK id=<id>`). */
export function providerIdOf(response: string | undefined): string | null {
  const last = response?.trim().split(/\s+/).pop()?.replace(/^id=/i, "");
  return last && /^[\w.@<>=-]{8,200}$/.test(last) && !/^(ok|queued|accepted)$/i.test(last) ? last : null;
}

/**
 * `mailer` behind the suppression list. `host` names the site in a Message-ID made here for a message that has
 * none of its own (so every message can be found again). Null stays null (mail off).
 */
export function guardedMailer(mailer: Mailer, guard: () => Promise<MailGuard>, host: string): Mailer;
export function guardedMailer(mailer: Mailer | null, guard: () => Promise<MailGuard>, host: string): Mailer | null;
export function guardedMailer(mailer: Mailer | null, guard: () => Promise<MailGuard>, host: string): Mailer | null {
  if (!mailer) return null;
  return {
    async send(to: string, message: MailMessage, options?: SendOptions) {
      if (message.team) return mailer.send(to, message, options);
      const list = await guard();
      if (await list.suppressed(to)) throw new Suppressed("suppressed");
      const sent: MailMessage = { ...message, messageId: message.messageId ?? `<${randomUUID()}@${host}>` };
      let info: SentInfo | undefined;
      try {
        info = ((await mailer.send(to, sent, options)) ?? undefined) as SentInfo | undefined;
      } catch (error) {
        const bounce = bounceOf(error);
        if (bounce) await list.bounced(to, sent, bounce).catch(logged("mail.bounce_unrecorded"));
        throw error;
      }
      // Accepted is accepted: a failure to record it must not make a sender think the message did not go.
      await list
        .accepted(to, sent, { messageId: sent.messageId ?? "", providerId: providerIdOf(info?.response) })
        .catch(logged("mail.sent_unrecorded"));
      return info;
    },
    close: () => mailer.close(),
  };
}
