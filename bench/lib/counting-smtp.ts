/**
 * An SMTP server on 127.0.0.1 that accepts every message and counts it per recipient, for a bench that mails many
 * people and must show that each got one: messages accepted, distinct recipients, and the first and last message's
 * time (for a rate). The body is read to its end and dropped, but for the console's sign-in links mailed to the
 * operator (`admin`), which are kept and not counted.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** The messages of one subject: how many, per recipient, and the first and last one's time (performance.now()). */
export interface Bucket {
  messages: number;
  /** Messages per recipient address (lower case). */
  perRecipient: Map<string, number>;
  first: number;
  last: number;
}

export interface CountingSmtp {
  /** smtp://127.0.0.1:<port> */
  url: string;
  /** Every message accepted, by its Subject (a wave's invitations apart from what the schedules send meanwhile). */
  bySubject: Map<string, Bucket>;
  /** The console's sign-in links mailed to the operator, in order. */
  signInLinks: string[];
  close(): Promise<void>;
}

const SIGN_IN_LINK = /https?:\/\/[^\s<>"]+\/admin\/sign-in\/confirm\?token=[^\s<>"]+/;

/** The Subject of a message's header (folded lines joined). */
const subjectOf = (head: string) =>
  /^subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im
    .exec(head)?.[1]
    ?.replace(/\r?\n[ \t]+/g, " ")
    .trim() ?? "";

export async function countingSmtp(admin: string): Promise<CountingSmtp> {
  const bySubject = new Map<string, Bucket>();
  const signInLinks: string[] = [];
  const count = (subject: string, to: string[]) => {
    const now = performance.now();
    const bucket = bySubject.get(subject) ?? { messages: 0, perRecipient: new Map(), first: now, last: now };
    bySubject.set(subject, bucket);
    bucket.last = now;
    bucket.messages++;
    for (const address of to) bucket.perRecipient.set(address, (bucket.perRecipient.get(address) ?? 0) + 1);
  };
  const server = new SMTPServer({
    authOptional: true,
    // No reverse DNS of 127.0.0.1 per connection: offline, each lookup waits for its timeout.
    disableReverseLookup: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      const to = session.envelope.rcptTo.map(({ address }) => address.toLowerCase());
      if (to.includes(admin)) {
        simpleParser(stream).then((mail) => {
          const link = SIGN_IN_LINK.exec(mail.text ?? "")?.[0];
          if (link) signInLinks.push(link);
          done();
        }, done);
        return;
      }
      // Only the header is read (its Subject); the rest of the message is let through unread.
      let head = "";
      let headRead = false;
      stream.on("data", (chunk: Buffer) => {
        if (headRead) return;
        head += chunk.toString("latin1");
        const end = head.search(/\r?\n\r?\n/);
        if (end >= 0) head = head.slice(0, end);
        headRead = end >= 0 || head.length > 65_536;
      });
      stream.on("end", () => {
        count(subjectOf(head), to);
        done();
      });
    },
  });
  // A client that drops its connection is an error on the server's side, not the bench's.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    bySubject,
    signInLinks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What one subject's counts say: messages, distinct recipients, those mailed twice or more, the rate first to last. */
export function reachOf(smtp: CountingSmtp, subject: string) {
  const bucket = smtp.bySubject.get(subject);
  const counts = [...(bucket?.perRecipient.values() ?? [])];
  const messages = bucket?.messages ?? 0;
  const ms = bucket ? bucket.last - bucket.first : 0;
  return {
    messages,
    recipients: counts.length,
    twice: counts.filter((each) => each > 1).length,
    perSecond: messages > 1 && ms > 0 ? (messages - 1) / (ms / 1000) : 0,
  };
}

/** Messages of every other subject (what the schedules sent meanwhile): "subject: count". */
export const otherMail = (smtp: CountingSmtp, subject: string) =>
  [...smtp.bySubject.entries()].filter(([each]) => each !== subject).map(([each, b]) => `${each}: ${b.messages}`);
