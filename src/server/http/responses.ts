/** What a handler answers with: JSON, a file to download, and work that runs after the answer. */
import type { Context } from "@netlify/functions";

const BASE_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/**
 * A 303 See Other to a page of this site: every answer to a form post that worked (a reload does not post again).
 * `headers` adds what that answer carries (a session cookie set or cleared).
 */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", ...headers } });
}

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

/**
 * Runs `work` after the answer, for as long as the platform keeps the function alive (`context.waitUntil`;
 * the local server tracks it and waits for it before it stops). `work` must not reject.
 */
export function afterAnswer(context: Context, work: Promise<unknown>): void {
  if (typeof context.waitUntil === "function") context.waitUntil(work);
}
