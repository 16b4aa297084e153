/**
 * A part of the list as a download: the file's name, and gzip when the reader accepts it. The function compresses
 * its own stream (Web Streams' CompressionStream), so what it sends is what counts against Netlify's 20 MB and what
 * crosses a slow line; a response that says Content-Encoding is passed on as it is, by Netlify's CDN and by the
 * local host alike (src/local-netlify compresses only the site's files, never a function's answer), so nothing is
 * compressed twice. export/parts.ts bounds a part's size before compression, so it holds either way.
 */
import { attachment } from "../http/responses";

/** Whether `Accept-Encoding` allows gzip: named, with no `q=0`. */
export function acceptsGzip(header: string | null): boolean {
  for (const item of (header ?? "").toLowerCase().split(",")) {
    const [coding, ...params] = item.split(";").map((part) => part.trim());
    if (coding !== "gzip" && coding !== "x-gzip") continue;
    const q = params.find((param) => param.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** `waitlist-2026-11-24-part-003-of-015.csv`: a part's name, sorting by day, then by number. */
export function partFilename(extension: string, part: number, of: number): string {
  const width = Math.max(3, String(of).length);
  const pad = (n: number) => String(n).padStart(width, "0");
  return `waitlist-${new Date().toISOString().slice(0, 10)}-part-${pad(part)}-of-${pad(of)}.${extension}`;
}

/**
 * A streamed file for `req`: gzip-compressed when the reader accepts it (Vary says so to any cache, though none
 * keeps it: no-store), named `filename` when given (else `waitlist-<day>.<extension>`), with `headers` added.
 */
export function download(
  req: Request,
  body: ReadableStream<Uint8Array>,
  file: { type: string; extension: string; filename?: string },
  headers: Record<string, string> = {},
): Response {
  const gzip = acceptsGzip(req.headers.get("accept-encoding"));
  const stream = gzip
    ? body.pipeThrough(new CompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array>)
    : body;
  const response = attachment(stream, file.type, "waitlist", file.extension);
  if (file.filename) response.headers.set("Content-Disposition", `attachment; filename="${file.filename}"`);
  response.headers.set("Vary", "Accept-Encoding");
  if (gzip) response.headers.set("Content-Encoding", "gzip");
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
