/** Small helpers for web-standard Request/Response handlers. */
import type { Context } from "@netlify/functions";

const BASE_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** A JSON response; every answer of the API, errors included, goes through here. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...BASE_HEADERS, ...headers },
  });
}

/** A file to download (an export): its type, a dated name, never cached, never sniffed. */
export function attachment(
  body: string | ReadableStream<Uint8Array> | null,
  type: string,
  name: string,
  extension: string,
): Response {
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": `${type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${name}-${day}.${extension}"`,
      ...BASE_HEADERS,
    },
  });
}

class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/**
 * Reads a request body as text, refusing it as soon as it passes `limit` bytes: a huge body is never
 * held in memory whole. A declared Content-Length over the limit is refused before reading anything.
 */
async function readText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new BodyTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/**
 * A request body as text, or the answer to give instead: 413 past `limit` bytes, 400 when it is not UTF-8.
 * The one place both functions read a body.
 */
export async function readBody(
  request: Request,
  limit: number,
): Promise<{ text: string } | { status: 400 | 413; message: string }> {
  try {
    return { text: await readText(request, limit) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, message: "Request body is too large." };
    return { status: 400, message: "Request body is not valid UTF-8." };
  }
}

/** The request's media type without parameters, lowercased (`application/json`); undefined when absent. */
export function mediaType(request: Request): string | undefined {
  return request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
}

export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/** Rejects with TimeoutError when `promise` takes longer than `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `work` after the answer, for as long as the platform keeps the function alive (`context.waitUntil`;
 * the local server tracks it and waits for it before it stops). `work` must not reject.
 */
export function afterAnswer(context: Context, work: Promise<unknown>): void {
  if (typeof context.waitUntil === "function") context.waitUntil(work);
}
