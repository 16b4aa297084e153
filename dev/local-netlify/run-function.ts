/**
 * Calls a v2 function for a Node request as Netlify does, within Netlify's limits (./limits.ts): the request body
 * is read whole first (Netlify hands a function its body in one event, so a body over the limit never reaches
 * it), the clock runs from the call to the last byte sent, and a response that outgrows its limit is refused or
 * cut where Netlify would refuse or cut it. Scheduled functions run here too, under their own limit, and background
 * functions (a name ending in `-background`) as Netlify runs them: 202 at once, the work detached, 15 minutes.
 */
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "@netlify/functions";
import { describeError, log } from "../../src/server/log";
import {
  type LimitName,
  NETLIFY_LIMITS,
  type NetlifyLimits,
  payloadBytes,
  reportLimit,
  requestTooLarge,
  responseTooLarge,
  timedOut,
} from "./limits";
import { createContext } from "./netlify-context";

export type FetchHandler = (request: Request, context: Context) => Response | Promise<Response>;

/** Methods the Fetch API refuses to build a Request for: answered 405 here, before any handler could fail on them. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Answers 405 to a method no handler can be called with; says whether it did. */
export function refusedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (!FORBIDDEN_METHODS.has((req.method ?? "GET").toUpperCase())) return false;
  res.writeHead(405, { Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8" });
  res.end("Method not allowed.\n");
  return true;
}

const TIME_UP = Symbol("time up");

/** An invocation's time limit: `race` settles with TIME_UP once `ms` have passed, whatever it waits on. */
function clock(ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const up = new Promise<typeof TIME_UP>((resolve) => {
    timer = setTimeout(() => resolve(TIME_UP), ms);
  });
  return {
    race: <T>(work: T | Promise<T>): Promise<T | typeof TIME_UP> => Promise.race([work, up]),
    stop: () => clearTimeout(timer),
  };
}

/** The request body, whole; undefined as soon as it passes `limit` (declared or counted), the rest left unread. */
async function readBody(
  req: IncomingMessage,
  limit: number,
  type: string | null,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (declared > 0 && payloadBytes(declared, type) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (payloadBytes(size, type) > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A function's headers for Node: every Set-Cookie it set, each its own header, as Netlify sends them (a plain object of
 * the Headers would keep only the last one).
 */
export function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const cookies = headers.getSetCookie();
  return { ...Object.fromEntries(headers), ...(cookies.length > 1 ? { "set-cookie": cookies } : {}) };
}

/** Sends a whole answer of the host's own (a refusal); `close` ends the connection, an unread body with it. */
async function answer(res: ServerResponse, response: Response, close = false): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = { ...Object.fromEntries(response.headers), "content-length": String(body.length) };
  res.writeHead(response.status, close ? { ...headers, connection: "close" } : headers);
  res.end(body);
}

/** Refuses past a limit: the one log line, then Netlify's answer. */
function refuse(res: ServerResponse, limit: LimitName, limits: NetlifyLimits, path: string, response: Response) {
  reportLimit(limit, limits, path);
  return answer(res, response, limit === "requestBytes" || limit === "backgroundRequestBytes");
}

/** The request as the function receives it, or null when its body is over `limit` (the rest left unread). */
async function toRequest(req: IncomingMessage, url: URL, limit: number): Promise<Request | null> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    body = await readBody(req, limit, headers.get("content-type"));
    if (!body) return null;
  }
  return new Request(url, { method, headers, ...(body ? { body } : {}) });
}

/**
 * Calls a background function as Netlify does: a body over its 256 KB is refused (413, as for the other
 * functions' limit: Netlify documents the number, not the answer), anything else is answered 202 with no body at
 * once, before the function runs; the function's own answer is dropped, and it is stopped at its 15 minutes (here
 * it is left to run on, unread, and the limit logged: a Node process cannot stop a promise). Its work is tracked in
 * `pending`, so the server waits for it before it stops, as it waits for waitUntil.
 */
export async function runBackground(
  req: IncomingMessage,
  res: ServerResponse,
  handler: FetchHandler,
  url: URL,
  pending = new Set<Promise<unknown>>(),
  limits: NetlifyLimits = NETLIFY_LIMITS,
): Promise<void> {
  if (refusedMethod(req, res)) return;
  const request = await toRequest(req, url, limits.backgroundRequestBytes);
  if (!request) {
    return refuse(
      res,
      "backgroundRequestBytes",
      limits,
      url.pathname,
      requestTooLarge(limits, limits.backgroundRequestBytes),
    );
  }
  res.writeHead(202, { "content-length": "0" }).end();
  const time = clock(limits.backgroundMs);
  const context = createContext(request, req.socket.remoteAddress ?? "", pending);
  const work = Promise.resolve()
    .then(() => handler(request, context))
    .then((response) => response.body?.cancel());
  const tracked = time
    .race(work)
    .then(
      (done) => {
        if (done === TIME_UP) reportLimit("backgroundMs", limits, url.pathname);
      },
      (error: unknown) =>
        log("error", "local_netlify.background_failed", { path: url.pathname, ...describeError(error) }),
    )
    .finally(() => {
      time.stop();
      pending.delete(tracked);
    });
  pending.add(tracked);
}

/** Calls a web-standard handler for a Node request and writes its Response back, within Netlify's limits. */
export async function runFunction(
  req: IncomingMessage,
  res: ServerResponse,
  handler: FetchHandler,
  url: URL,
  pending = new Set<Promise<unknown>>(),
  limits: NetlifyLimits = NETLIFY_LIMITS,
): Promise<void> {
  if (refusedMethod(req, res)) return;
  const request = await toRequest(req, url, limits.requestBytes);
  if (!request) return refuse(res, "requestBytes", limits, url.pathname, requestTooLarge(limits));
  const time = clock(limits.synchronousMs);
  try {
    const context = createContext(request, req.socket.remoteAddress ?? "", pending);
    const called = Promise.resolve(handler(request, context));
    const response = await time.race(called);
    if (response === TIME_UP) {
      // Netlify stops the function; here it runs on, and whatever it answers late is dropped unread.
      called.then(
        (late) => late.body?.cancel(),
        () => {},
      );
      return refuse(res, "synchronousMs", limits, url.pathname, timedOut(limits.synchronousMs));
    }
    await send(req, res, response, limits, time.race, url.pathname);
  } finally {
    time.stop();
  }
}

type Race = ReturnType<typeof clock>["race"];

/** Waits for the client to take more (or go, or the time to run out), leaving no listener behind. */
async function writable(res: ServerResponse, race: Race): Promise<void> {
  const done = new AbortController();
  const { signal } = done;
  try {
    await race(Promise.race([once(res, "drain", { signal }), once(res, "close", { signal })]));
  } finally {
    done.abort();
  }
}

/**
 * Writes a function's Response, at the client's pace, as the platform streams it (an export is never held whole
 * in memory here). A body the function handed over whole (its first chunk is all of it) is held to the buffered
 * limit, and answered 502 over it; a streamed one is sent up to the streamed limit, then the connection ends
 * (the status has gone by then: the client sees a body cut short), as it does when the time runs out midway.
 */
async function send(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  limits: NetlifyLimits,
  race: Race,
  path: string,
): Promise<void> {
  const head = () => res.writeHead(response.status, nodeHeaders(response.headers));
  if (req.method === "HEAD" || !response.body) {
    await response.body?.cancel();
    head().end();
    return;
  }
  const reader = response.body.getReader();
  const end = async (limit?: LimitName) => {
    if (limit) reportLimit(limit, limits, path);
    await reader.cancel().catch(() => {});
    res.destroy();
  };
  const queued: Uint8Array[] = [];
  let next: Awaited<ReturnType<typeof reader.read>> | typeof TIME_UP;
  try {
    // Headers go with the first chunk (a function that takes its time before it sends one is answered 502 at
    // its limit, where Netlify, which sent them first, would cut); only a first chunk over the buffered limit
    // needs a look past it, to tell a whole body from the start of a stream.
    next = await race(reader.read());
    if (next !== TIME_UP && !next.done && next.value.byteLength > limits.bufferedResponseBytes) {
      queued.push(next.value);
      next = await race(reader.read());
      if (next !== TIME_UP && next.done) {
        return refuse(res, "bufferedResponseBytes", limits, path, responseTooLarge(limits));
      }
    }
  } catch {
    // The body failed before its first byte: the connection ends without an answer.
    return end();
  }
  if (next === TIME_UP) {
    await reader.cancel().catch(() => {});
    return refuse(res, "synchronousMs", limits, path, timedOut(limits.synchronousMs));
  }
  head();
  if (!next.done) queued.push(next.value);
  try {
    let sent = 0;
    for (;;) {
      for (const chunk of queued.splice(0)) {
        const room = limits.streamedResponseBytes - sent;
        if (chunk.byteLength > room) {
          // Netlify sends up to its limit, then ends the connection: the part that fits goes out first.
          await new Promise((resolve) => res.write(chunk.subarray(0, room), resolve));
          return end("streamedResponseBytes");
        }
        sent += chunk.byteLength;
        if (!res.write(chunk)) await writable(res, race);
        if (res.destroyed) throw new Error("the client went away");
      }
      const read = await race(reader.read());
      if (read === TIME_UP) return end("synchronousMs");
      if (read.done) break;
      queued.push(read.value);
    }
    res.end();
  } catch {
    // The client went away, or the body failed midway: the connection ends without a complete answer.
    await end();
  }
}

/**
 * Runs a scheduled function as Netlify's scheduler calls it (a POST to its default path, `x-nf-event: schedule`,
 * Netlify's user agent), within the scheduled limit. Netlify gives it no URL; a harness calls this instead.
 */
export async function runScheduled(
  handler: FetchHandler,
  name: string,
  limits: NetlifyLimits = NETLIFY_LIMITS,
  pending = new Set<Promise<unknown>>(),
  /** The site's address, as the context names it (`npm start`'s own; a scheduled run has no request to read it from). */
  siteUrl?: string,
): Promise<Response> {
  const request = new Request(new URL(`/.netlify/functions/${name}`, "http://localhost"), {
    method: "POST",
    headers: { "user-agent": "Netlify Clockwork", "x-nf-event": "schedule" },
  });
  const time = clock(limits.scheduledMs);
  try {
    const response = await time.race(handler(request, createContext(request, "", pending, siteUrl)));
    if (response !== TIME_UP) return response;
    reportLimit("scheduledMs", limits, new URL(request.url).pathname);
    return timedOut(limits.scheduledMs);
  } finally {
    time.stop();
  }
}
