import { Readable } from "node:stream";
import type { ServerConfig } from "../config";
import { log } from "../log";

/** What a mailer's send may report: the Message-ID used and the server's final answer. */
export interface SentInfo {
  messageId?: string | undefined;
  response?: string | undefined;
}

/** One e-mail, in the two forms every client can show. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
  /** Headers of a message to a list (List-Unsubscribe, …); none for the site's one-to-one e-mails. */
  headers?: Record<string, string>;
  /** Its Message-ID (`<…@host>`): the same for a message sent again, so a mailbox keeps one. Else nodemailer's. */
  messageId?: string;
  /**
   * An e-mail to the team's own addresses (the console's sign-in link, a test to oneself): the only kind that does
   * not pass the suppression list (guard.ts). Set where such a message is made, never by a sender.
   */
  team?: boolean;
  /** The update this message is of, so what comes back for it counts against that update (src/server/suppression/). */
  update?: number;
}

export interface SendOptions {
  /**
   * Runs once the server has answered DATA (and so every RCPT TO), when the whole message but its last byte is on
   * its way, before that byte (and so the end of the data) is sent: from then on the server may accept it at any
   * moment. Never earlier: not while the server weighs the envelope. A rejection abandons the message.
   */
  beforeCommit?: () => Promise<void>;
}

/**
 * A list's headers as written, never folded: nodemailer folds any header line past 76 characters, and a
 * List-Unsubscribe URL with its token always is one. RFC 5322 allows a line of 998; a reader that takes the header
 * as it arrived (as RFC 8058's one-click POST is made from it) must find the URL whole. Only printable ASCII is
 * passed unencoded so; anything else is left to nodemailer to encode.
 */
function prepared(headers: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      /^[\x20-\x7e]{1,900}$/.test(value) ? { prepared: true, value } : value,
    ]),
  );
}

/** What sends e-mail: SMTP in production and tests (a local SMTP server), never a stand-in. */
export interface Mailer {
  /** Resolves once the server accepted the message; an SMTP mailer says with what (guard.ts records it). */
  send(to: string, message: MailMessage, options?: SendOptions): Promise<SentInfo | unknown>;
  close(): void;
}

/**
 * The message as the SMTP connection reads it, with `hook` run before its last byte. It reads nothing until the
 * connection does, and the connection reads the message only once the server has answered DATA (so every RCPT TO
 * too): the hook runs after the envelope was answered, never while the server still weighs it. (A step that only
 * transforms the message runs as soon as the message is composed: a small one is whole in the stream's buffers
 * before the server has even answered RCPT TO, and a check made then misses whoever leaves before DATA.)
 */
function heldBeforeLastByte(input: Readable, hook: () => Promise<void>): Readable {
  async function* chunks() {
    let held: Buffer | undefined;
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      if (held) yield held;
      held = Buffer.from(chunk);
    }
    // Without its last byte the message has no end (the line break before the final "."): no server accepts it.
    if (held && held.length > 1) {
      yield held.subarray(0, -1);
      held = held.subarray(-1);
    }
    await hook();
    if (held) yield held;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * A mailer over SMTP_URL with nodemailer (loaded when the mailer is made, so a site without mail never loads it). Time
 * limits are short: sending runs after the answer (context.waitUntil), and a dead server must not hold the
 * function to its own limit.
 */
export function createSmtpMailer(mail: NonNullable<ServerConfig["mail"]>, use: { pool?: boolean } = {}): Mailer {
  let transport: Promise<import("nodemailer").Transporter> | undefined;
  const open = () => {
    // Options in the URL's query (e.g. ?connectionTimeout=) override these. A pool (for a wave of invitations)
    // keeps one connection for message after message: a new one costs a TLS handshake and the server's greeting
    // (which servers delay on purpose, to catch clients that talk first).
    const options = {
      url: mail.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(use.pool ? { pool: true, maxConnections: 1 } : {}),
    };
    transport ??= import("nodemailer").then(({ createTransport }) => {
      const smtp = createTransport(options, { from: mail.from });
      // nodemailer's own plugin step: a message sent with `beforeCommit` gets its last byte held back until it ran.
      // A process function is the message's last stage, the very stream the connection reads after DATA.
      smtp.use("stream", (sent, done) => {
        const hook = (sent.data as { beforeCommit?: () => Promise<void> }).beforeCommit;
        if (hook) sent.message.processFunc((input) => heldBeforeLastByte(input, hook));
        done();
      });
      return smtp;
    });
    return transport;
  };
  // Loaded now, while the request is answered, not after: the e-mail then goes out with no import to wait for,
  // and under `netlify dev` (whose build folder is moved once the answer is sent) the import still resolves.
  open().catch(() => {});
  return {
    async send(to, message, sendOptions = {}) {
      const smtp = await open();
      const { beforeCommit } = sendOptions;
      const info = await smtp.sendMail({
        to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.headers ? { headers: prepared(message.headers) } : {}),
        ...(message.messageId ? { messageId: message.messageId } : {}),
        ...(beforeCommit ? { beforeCommit } : {}),
      } as import("nodemailer").SendMailOptions);
      return { messageId: info.messageId, response: info.response };
    },
    close() {
      void transport?.then((smtp) => smtp.close());
    },
  };
}

let cached: { url: string; mailer: Mailer } | undefined;
let warned = false;

/**
 * The process's mailer for the configuration, created on first use; null while mail is off (said once in the
 * log when only one of SMTP_URL and MAIL_FROM is set).
 */
export function mailerFor(config: ServerConfig): Mailer | null {
  if (!config.mail) {
    if (config.mailConfigProblem && !warned) {
      warned = true;
      log("warn", "mail.config_incomplete", { problem: config.mailConfigProblem });
    }
    return null;
  }
  if (cached?.url !== config.mail.smtpUrl) {
    cached?.mailer.close();
    cached = { url: config.mail.smtpUrl, mailer: createSmtpMailer(config.mail) };
  }
  return cached.mailer;
}
