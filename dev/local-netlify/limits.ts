/**
 * What Netlify refuses a function, as one table, and what the local host answers at each limit. The values are
 * Netlify's documented defaults ("Functions configuration", https://docs.netlify.com/build/functions/configuration,
 * "Default values"; none of them configurable). Netlify documents the numbers, not the answers: the answers below
 * are what it has been seen to send (sources with each), else a 413/502 naming the limit. docs/testing.md has the
 * table in words.
 */
import { log } from "../../src/server/log";

export interface NetlifyLimits {
  /** A request body as the function receives it: binary bodies count base64-encoded, as Netlify sends them. */
  requestBytes: number;
  /** A response the function hands over whole (one string or buffer). */
  bufferedResponseBytes: number;
  /** A response the function streams: Netlify sends this much, then ends the connection. */
  streamedResponseBytes: number;
  /** A synchronous function, from its call to the last byte of its response. */
  synchronousMs: number;
  /** A scheduled function, from its call to its answer. */
  scheduledMs: number;
  /** A background function's request body (Netlify: 256 KB), refused before the function is called. */
  backgroundRequestBytes: number;
  /** A background function, from its call to its end (Netlify: 15 minutes; @netlify/functions' BACKGROUND_FUNCTION_TIMEOUT). */
  backgroundMs: number;
}
export type LimitName = keyof NetlifyLimits;

/** Netlify writes "6 MB"; AWS Lambda under it counts 6 MiB (its refusals say "limit 6291456 bytes"). */
const MB = 1024 * 1024;

export const NETLIFY_LIMITS: Readonly<NetlifyLimits> = Object.freeze({
  requestBytes: 6 * MB,
  bufferedResponseBytes: 6 * MB,
  streamedResponseBytes: 20 * MB,
  synchronousMs: 60_000,
  scheduledMs: 30_000,
  backgroundRequestBytes: 256 * 1024,
  backgroundMs: 15 * 60_000,
});

/** Netlify's suffix for a background function's name (as @netlify/functions-dev and zip-it-and-ship-it read it). */
export const BACKGROUND_SUFFIX = "-background";

/** Netlify's limits with some replaced: tests shorten the times rather than wait 60 s. */
export function limitsWith(overrides: Partial<NetlifyLimits> = {}): NetlifyLimits {
  return { ...NETLIFY_LIMITS, ...overrides };
}

/** The one log line a refusal leaves, naming the limit (the path only: a query string may carry a token). */
export function reportLimit(limit: LimitName, limits: NetlifyLimits, path: string): void {
  log("error", "local_netlify.limit", { limit, max: limits[limit], path });
}

/**
 * Media types Netlify passes as text; every other body (or one without a type) reaches the function
 * base64-encoded, a third bigger, which is why its docs put the binary upload limit at about 4.5 MB. The same
 * rule as Netlify's emulator (`shouldBase64Encode` in @netlify/dev-utils).
 */
const TEXT_TYPES = new Set([
  "application/csp-report",
  "application/graphql",
  "application/javascript",
  "application/json",
  "application/x-www-form-urlencoded",
  "application/x-ndjson",
  "application/xml",
]);

/** The size of a request body as the function's payload: as sent for text, base64's length otherwise. */
export function payloadBytes(bodyBytes: number, contentType: string | null | undefined): number {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  const text = type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml") || TEXT_TYPES.has(type);
  return text ? bodyBytes : Math.ceil(bodyBytes / 3) * 4;
}

/** Over the request limit. Netlify documents no answer; Netlify's CLI (`express.raw({ limit: "6mb" })`) sends 413. */
export function requestTooLarge(limits: NetlifyLimits, bytes = limits.requestBytes): Response {
  return new Response(`Request body too large: a function accepts at most ${bytes} bytes.\n`, {
    status: 413,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

/**
 * Over the buffered response limit: the 502 and body Netlify's functions have been seen to answer (AWS Lambda's
 * error, whose own figure, 6291556, counts the whole envelope, not just the body).
 */
export function responseTooLarge(limits: NetlifyLimits): Response {
  return Response.json(
    {
      errorMessage: `Response payload size exceeded maximum allowed payload size (${limits.bufferedResponseBytes} bytes).`,
      errorType: "Function.ResponseSizeTooLarge",
    },
    { status: 502 },
  );
}

/**
 * Past the time limit, before any of the response was sent: Netlify answers 502 with Lambda's message (in
 * production prefixed by a time and request ID, which are left out here so the answer is the same every time).
 */
export function timedOut(ms: number): Response {
  return Response.json(
    { errorMessage: `Task timed out after ${(ms / 1000).toFixed(2)} seconds`, errorType: "TimeoutError" },
    { status: 502 },
  );
}
