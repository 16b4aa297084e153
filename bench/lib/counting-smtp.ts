/**
 * An SMTP server on 127.0.0.1 that accepts every message and counts it per recipient, for a bench that mails many
 * people and must show that each got one: messages accepted, distinct recipients, and the first and last message's
 * time (for a rate). The body is read to its end and dropped, but for the console's sign-in links mailed to the
 * operator (`admin`), which are kept and not counted.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CountingSmtp {
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: number;
  /** Messages per recipient address (lower case). */
  perRecipient: Map<string, number>;
  /** performance.now() of the first and the last message accepted (0: none yet). */
  first: number;
  last: number;
  /** The console's sign-in links mailed to the operator, in order. */
  signInLinks: string[];
  close(): Promise<void>;
}

const SIGN_IN_LINK = /https?:\/\/[^\s<>"]+\/admin\/sign-in\/confirm\?token=[^\s<>"]+/;

export async function countingSmtp(admin: string): Promise<CountingSmtp> {
  const counts = {
    messages: 0,
    perRecipient: new Map<string, number>(),
    first: 0,
    last: 0,
    signInLinks: [] as string[],
  };
  const server = new SMTPServer({
    authOptional: true,
    // No reverse DNS of 127.0.0.1 per connection: offline, each lookup waits for its timeout.
    disableReverseLookup: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      if (session.envelope.rcptTo.some(({ address }) => address.toLowerCase() === admin)) {
        simpleParser(stream).then((mail) => {
          const link = SIGN_IN_LINK.exec(mail.text ?? "")?.[0];
          if (link) counts.signInLinks.push(link);
          done();
        }, done);
        return;
      }
      stream.on("data", () => {});
      stream.on("end", () => {
        const now = performance.now();
        counts.first ||= now;
        counts.last = now;
        counts.messages++;
        for (const { address } of session.envelope.rcptTo) {
          const to = address.toLowerCase();
          counts.perRecipient.set(to, (counts.perRecipient.get(to) ?? 0) + 1);
        }
        done();
      });
    },
  });
  // A client that drops its connection is an error on the server's side, not the bench's.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(counts, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** What the counts say: messages, distinct recipients, those mailed twice or more, and the rate first to last. */
export function reachOf(smtp: CountingSmtp) {
  const counts = [...smtp.perRecipient.values()];
  const ms = smtp.last - smtp.first;
  return {
    messages: smtp.messages,
    recipients: counts.length,
    twice: counts.filter((count) => count > 1).length,
    perSecond: smtp.messages > 1 && ms > 0 ? (smtp.messages - 1) / (ms / 1000) : 0,
  };
}
