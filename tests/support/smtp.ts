/**
 * A real SMTP server on 127.0.0.1 (smtp-server, from the nodemailer project) that keeps what it receives,
 * parsed (mailparser), for tests to read. No TLS, no authentication: it listens on loopback only.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: ParsedMail["headers"];
  /** Each header's bytes as they arrived (`List-Unsubscribe: <…>`, folds and all), by lower-case name. */
  rawHeaders: Map<string, string>;
  /** Every https?:// link in the text part. */
  links: string[];
}

export interface TestSmtp {
  url: string;
  port: number;
  messages: CapturedMail[];
  /** Resolves with the messages to `to` once there are `count` of them (rejects after `timeoutMs`). */
  waitFor(to: string, count?: number, timeoutMs?: number): Promise<CapturedMail[]>;
  /**
   * Holds the server's next reply at `step` for `to` (to its RCPT TO, or to the final "." of a message to it)
   * until the test calls release(); `reached` resolves once the reply is being held.
   */
  hold(step: HeldStep, to: string): HeldReply;
  close(): Promise<void>;
}

export type HeldStep = "rcpt" | "data";

export interface HeldReply {
  reached: Promise<void>;
  release(): void;
}

export interface SmtpOptions {
  /** Recipients refused at RCPT TO with a 550, as a server refuses a mailbox that does not exist. */
  refuse?: readonly string[];
  /**
   * Recipients deferred at RCPT TO while this says so: true, a 451 (a provider throttling: "try again later"), or
   * the 4xx code it gives (421: the server will take nothing now).
   */
  defer?: (address: string) => boolean | number;
  /** The answer to MAIL FROM while this gives one: a code (554: the account refused), or nothing (250). */
  sender?: () => number | undefined;
  /** Called with the number received so far once a message is whole, before it is answered; the 250 waits for it. */
  beforeAnswer?: (count: number) => unknown;
  /**
   * The server's own answer to a recipient's RCPT TO, word for word (`550 5.1.1 user unknown`, `452 4.2.2 mailbox
   * full`), as a real mailbox server gives it; undefined: the usual answers.
   */
  answers?: (address: string) => string | undefined;
  /** Called at each RCPT TO with the recipient; the answer waits for what it returns. */
  onRecipient?: (address: string) => unknown;
}

export async function startSmtp(options: SmtpOptions = {}): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const listeners = new Set<() => void>();
  const holds = new Map<string, { reach: () => void; released: Promise<void> }>();
  /** Waits out a hold set for this step and address, if any (each hold is used once). */
  const heldAt = async (step: HeldStep, address: string) => {
    const key = `${step}:${address.toLowerCase()}`;
    const held = holds.get(key);
    if (!held) return;
    holds.delete(key);
    held.reach();
    await held.released;
  };
  const refused = new Set((options.refuse ?? []).map((address) => address.toLowerCase()));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onMailFrom(_address, _session, done) {
      const code = options.sender?.();
      if (code === undefined) return done();
      const refused = new Error("5.7.1 Sending refused for this account") as Error & { responseCode: number };
      refused.responseCode = code;
      done(refused);
    },
    onRcptTo(address, _session, done) {
      const answer = async () => {
        await options.onRecipient?.(address.address);
        await heldAt("rcpt", address.address);
        const said = options.answers?.(address.address);
        if (said) {
          const error = new Error(said.slice(4)) as Error & { responseCode: number };
          error.responseCode = Number(said.slice(0, 3));
          return done(error);
        }
        const deferred = options.defer?.(address.address);
        if (deferred) {
          const later = new Error("4.7.1 Try again later") as Error & { responseCode: number };
          later.responseCode = deferred === true ? 451 : deferred;
          return done(later);
        }
        if (!refused.has(address.address.toLowerCase())) return done();
        const error = new Error("5.1.1 Mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        done(error);
      };
      void answer();
    },
    onData(stream, session, done) {
      const receive = async () => {
        const mail = await simpleParser(stream);
        const text = mail.text ?? "";
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          subject: mail.subject ?? "",
          text,
          html: typeof mail.html === "string" ? mail.html : "",
          headers: mail.headers,
          rawHeaders: new Map(mail.headerLines.map((h) => [h.key, h.line])),
          links: text.match(/https?:\/\/\S+/g) ?? [],
        });
        for (const listener of listeners) listener();
        await options.beforeAnswer?.(messages.length);
        for (const to of session.envelope.rcptTo) await heldAt("data", to.address);
      };
      receive().then(() => done(), done);
    },
  });
  // A client killed mid-session (the tests SIGKILL waves) resets its connection: expected, not a failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(to, count = 1, timeoutMs = 10_000) {
      const mine = () => messages.filter((m) => m.to.toLowerCase() === to.toLowerCase());
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mine().length < count) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(mine());
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`expected ${count} message(s) to ${to}, got ${mine().length}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    hold(step, to) {
      let reach = () => {};
      let release = () => {};
      const reached = new Promise<void>((resolve) => {
        reach = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(`${step}:${to.toLowerCase()}`, { reach, released });
      return { reached, release };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
