/**
 * What each page costs on the wire as `npm start` (and a CDN) serves it: the response's status line, headers
 * and brotli body, counted on a raw socket as the browser counts them. A page that fits in a new connection's
 * first congestion window (10 segments of 1460 bytes, RFC 6928) arrives whole one round trip after the request;
 * one byte more costs a second round trip before the page can paint.
 */
import { connect } from "node:net";

export const FIRST_WINDOW_BYTES = 10 * 1460;

export interface WireSize {
  path: string;
  headers: number;
  body: number;
  total: number;
}

/** One GET as a browser makes it (brotli accepted, connection kept alive), counted byte by byte. */
function get(port: number, path: string): Promise<WireSize> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = received.subarray(0, end + 4).toString("latin1");
      // A function's answer may come chunked (no length ahead): its framing is on the wire too, to the last chunk.
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
        if (
          !received.subarray(end + 4).includes("\r\n0\r\n\r\n") &&
          !received
            .subarray(end + 4)
            .toString("latin1")
            .startsWith("0\r\n\r\n")
        )
          return;
        socket.destroy();
        return resolve({ path, headers: end + 4, body: received.length - end - 4, total: received.length });
      }
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!Number.isFinite(length)) return reject(new Error(`${path}: no content-length`));
      if (received.length < end + 4 + length) return;
      socket.destroy();
      resolve({
        path,
        headers: end + 4,
        body: length,
        total: end + 4 + length,
      });
    });
    socket.on("error", reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/html\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nConnection: keep-alive\r\n\r\n`,
    );
  });
}

/** Each path of a build served on loopback at `port` (see serve-build.ts), one request after another. */
export async function measureWireSizes(port: number, paths: string[]): Promise<WireSize[]> {
  const sizes: WireSize[] = [];
  for (const path of paths) sizes.push(await get(port, path));
  return sizes;
}
