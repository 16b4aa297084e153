/**
 * Greets an SMTP server and leaves: connect (TLS from the start for smtps://), read the 220 greeting, EHLO, read
 * what it offers, QUIT. No login, no message: the setup check wants to know the server answers and whether it
 * offers STARTTLS, and must never send anything.
 */
import net from "node:net";
import tls from "node:tls";

export interface SmtpHello {
  /** The host and port greeted (never the URL's user or password). */
  where: string;
  /** TLS from the first byte (smtps://). */
  implicitTls: boolean;
  /** Whether the EHLO answer lists STARTTLS. */
  startTls: boolean;
}

/** One reply, possibly several lines (`250-…` continues, `250 …` ends it). */
function replies(socket: net.Socket) {
  let buffer = "";
  const waiting: Array<(reply: string) => void> = [];
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const end = /^\d{3} .*\r?\n/m.exec(buffer);
      if (!end) return;
      const stop = end.index + end[0].length;
      waiting.shift()?.(buffer.slice(0, stop));
      buffer = buffer.slice(stop);
    }
  });
  return () => new Promise<string>((resolve) => waiting.push(resolve));
}

export async function smtpHello(smtpUrl: string, timeoutMs = 10_000): Promise<SmtpHello> {
  const url = new URL(smtpUrl);
  const implicitTls = url.protocol === "smtps:";
  const port = Number(url.port) || (implicitTls ? 465 : 587);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const where = `${url.hostname}:${port}`;
  const socket = implicitTls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
  const next = replies(socket);
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once("close", () => reject(new Error("the server closed the connection")));
      (async () => {
        const greeting = await next();
        if (!greeting.startsWith("220")) throw new Error(`greeted with "${greeting.trim()}"`);
        socket.write("EHLO setup-check.invalid\r\n");
        const ehlo = await next();
        if (!ehlo.startsWith("250")) throw new Error(`answered EHLO with "${ehlo.trim().split("\n")[0]}"`);
        socket.write("QUIT\r\n");
        clearTimeout(timer);
        return ehlo;
      })().then(resolve, reject);
    });
    return { where, implicitTls, startTls: /^250[ -]STARTTLS\b/im.test(answer) };
  } finally {
    socket.destroy();
  }
}
