/**
 * A page a function answers, compressed as the client accepts it (brotli, else gzip), by the function itself. A
 * file on Netlify's CDN is compressed by the CDN; a function's answer is not compressed for it unless it does so
 * itself (docs/deploying.md), and an HTML page uncompressed misses a new connection's first round trip. Brotli at
 * quality 6: /join's 45.6 KB in about 1 ms to 10.2 KB (quality 11: 9.4 KB in 39 ms, too slow per request).
 */
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";

const QUALITY = 6;

/** The encoding to answer in: `br` when accepted (not `;q=0`), else `gzip`, else none. */
export function acceptedEncoding(accept: string | null): "br" | "gzip" | null {
  const accepted = new Set(
    (accept ?? "")
      .toLowerCase()
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
      .map(([coding]) => coding?.trim()),
  );
  return accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : null;
}

/**
 * `html` as `request` accepts it: the body, and the headers that say how (Content-Encoding, and Vary: Accept-Encoding
 * always, so no cache gives one client's encoding to another).
 */
export function compressedPage(
  request: Request,
  html: string,
): { body: Uint8Array<ArrayBuffer> | string; headers: Record<string, string> } {
  const encoding = acceptedEncoding(request.headers.get("accept-encoding"));
  const vary = { Vary: "Accept-Encoding" };
  if (!encoding) return { body: html, headers: vary };
  const raw = Buffer.from(html);
  const body =
    encoding === "br"
      ? brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        })
      : gzipSync(raw, { level: 6 });
  return { body: Uint8Array.from(body), headers: { ...vary, "Content-Encoding": encoding } };
}
