/**
 * Test-only: a TCP proxy in front of PostgreSQL that counts the client's query round trips on the wire:
 * each simple `Query` ('Q') and each extended-protocol `Sync` ('S') is one exchange the client waits for.
 * Start-up and authentication are not counted (a pooled connection pays them once).
 */
import { createConnection, createServer, type Server } from "node:net";

export interface WireCounter {
  /** A connection string to the proxy, for the database of `url`. */
  url: string;
  roundTrips(): number;
  close(): Promise<void>;
}

export async function startWireCounter(url: string): Promise<WireCounter> {
  const target = new URL(url);
  let roundTrips = 0;
  const sockets = new Set<{ destroy(): void }>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          // Start-up messages have no type byte: int32 length, int32 code (3.0 protocol = 196608).
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          started = buffered.readInt32BE(4) === 196608;
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) break;
        const type = String.fromCharCode(buffered[0] ?? 0);
        if (type === "Q" || type === "S") roundTrips++;
        buffered = buffered.subarray(length + 1);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.href,
    roundTrips: () => roundTrips,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
