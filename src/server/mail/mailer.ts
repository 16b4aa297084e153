import { Transform } from "node:stream";
import type { ServerConfig } from "../config";
import { log } from "../log";

/** One e-mail, in the two forms every client can show. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

export interface SendOptions {
  /**
   * Runs when the whole message but its last bytes has gone to the server, before they (and so the end of the
   * data) are sent: from then on the server may accept it at any moment. A rejection abandons the message.
   */
  beforeCommit?: () => Promise<void>;
}

/** What sends e-mail: SMTP in production and tests (a local SMTP server), never a stand-in. */
export interface Mailer {
  send(to: string, message: MailMessage, options?: SendOptions): Promise<void>;
  close(): void;
}

/** A stream step that holds each chunk until the next arrives, and the last one until `hook` has run. */
function holdLastChunk(hook: () => Promise<void>): Transform {
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (held) this.push(held);
      held = chunk;
      callback();
    },
    flush(callback) {
      hook().then(() => {
        if (held) this.push(held);
        callback();
      }, callback);
    },
  });
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
      // nodemailer's own plugin step: a message sent with `beforeCommit` gets its last chunk held back until it ran.
      smtp.use("stream", (sent, done) => {
        const hook = (sent.data as { beforeCommit?: () => Promise<void> }).beforeCommit;
        if (hook) sent.message.transform(() => holdLastChunk(hook));
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
      await smtp.sendMail({
        to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(beforeCommit ? { beforeCommit } : {}),
      } as import("nodemailer").SendMailOptions);
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
