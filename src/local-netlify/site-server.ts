/**
 * Serves a built site the way Netlify does, with Netlify's own parts: `@netlify/config` reads netlify.toml
 * as the build does, `@netlify/static` maps a URL to a file (`/product`, `/product/` and `/product.html`
 * alike), `@netlify/headers-parser` matches header rules (case-insensitively, `/_astro/*` matching
 * `/_astro` too). Added here, as a CDN adds them: brotli/gzip, `404.html` with a true 404 for every
 * unmatched path, and v2 functions at their `config.path`, called with a platform-shaped context.
 * tests/platform/netlify-parity.test.ts holds the answers equal to `@netlify/dev`'s.
 * Longer than 150 lines: files, headers, compression, 404s and function routing answer one request together.
 */

import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import type { Context } from "@netlify/functions";
import { parseAllHeaders } from "@netlify/headers-parser";
import { StaticHandler } from "@netlify/static";
import { createContext } from "./netlify-context";

export type FetchHandler = (request: Request, context: Context) => Response | Promise<Response>;
export interface FunctionRoute {
  path: string;
  handler: FetchHandler;
  /** The methods it answers (config.method); others go on to the files. Absent: every method. */
  methods?: string[];
}
export interface HeaderRule {
  for: string;
  forRegExp: RegExp;
  values: Record<string, string>;
}

/** Methods the Fetch API refuses to build a Request for: answered 405 here, before any handler could fail on them. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Answers 405 to a method no handler can be called with; says whether it did. */
function refusedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (!FORBIDDEN_METHODS.has((req.method ?? "GET").toUpperCase())) return false;
  res.writeHead(405, { Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8" });
  res.end("Method not allowed.\n");
  return true;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml)|image\/svg\+xml)/;

/** Header rules from netlify.toml and `<publish>/_headers`, parsed by Netlify's own parser. */
export async function loadHeaderRules(configPath: string, publish: string): Promise<HeaderRule[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [join(publish, "_headers")],
    netlifyConfigPath: configPath,
    configHeaders: [],
    minimal: false,
  });
  if (errors.length) throw new Error(`netlify.toml headers: ${errors.map((e) => e.message).join("; ")}`);
  return headers as HeaderRule[];
}

/** Every rule that matches applies; a later rule's value wins (as @netlify/headers does). */
function headersFor(rules: HeaderRule[], path: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => rule.forRegExp.test(path)).map((rule) => rule.values));
}

export interface SiteOptions {
  publish: string;
  headerRules: HeaderRule[];
  functions?: FunctionRoute[];
  /** What an unmatched path gets: 404.html with 404 (default), or a single-page app's index.html with 200. */
  notFound?: { path: string; status: number };
  /** The host name the site is served at (default `localhost`); with the listening port, the site's origin. */
  host?: string;
}

/**
 * The URL a request is for, on the server's own origin (`http://<host>:<port>`, port from the socket): never the
 * Host header, and a path that starts with `//` stays a path (`//evil.example/api` is not another host).
 */
export function requestUrl(req: IncomingMessage, host = "localhost"): URL {
  const name = host === "0.0.0.0" || host === "::" || host === "" ? "localhost" : host;
  const origin = `http://${name.includes(":") ? `[${name}]` : name}:${req.socket.localPort}`;
  const path = req.url ?? "/";
  return new URL(`${origin}${path.startsWith("/") ? path : `/${path}`}`);
}

export function createSiteHandler(options: SiteOptions) {
  const notFound = options.notFound ?? { path: "/404.html", status: 404 };
  const files = new StaticHandler({ directory: options.publish });
  const functions = options.functions ?? [];
  const encoded = new Map<string, { body: Buffer; encoding?: "br" | "gzip" }>();
  const pending = new Set<Promise<unknown>>();

  const encode = async (key: string, response: Response, accept: string) => {
    const type = response.headers.get("content-type") ?? "";
    const wants = !COMPRESSIBLE.test(type)
      ? undefined
      : /\bbr\b/.test(accept)
        ? "br"
        : /\bgzip\b/.test(accept)
          ? "gzip"
          : undefined;
    const cacheKey = `${wants ?? "identity"}:${key}`;
    let hit = encoded.get(cacheKey);
    if (!hit) {
      const raw = Buffer.from(await response.arrayBuffer());
      hit =
        wants === "br"
          ? { body: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }), encoding: "br" }
          : wants === "gzip"
            ? { body: gzipSync(raw, { level: 9 }), encoding: "gzip" }
            : { body: raw };
      encoded.set(cacheKey, hit);
    } else {
      await response.body?.cancel();
    }
    return hit;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req, options.host);
    const method = req.method ?? "GET";
    if (refusedMethod(req, res)) return;
    const fn = functions.find(
      (route) => route.path === url.pathname && (!route.methods || route.methods.includes(method)),
    );
    if (fn) return runFunction(req, res, fn.handler, url, pending);

    // An unmatched path gets 404.html as if it had been asked for (its headers too: a 404 under /_astro/
    // must not be cached as an immutable asset), with a true 404 status.
    let path = url.pathname;
    let status = 200;
    let match = await files.match(new Request(url));
    if (!match) {
      [path, status] = [notFound.path, notFound.status];
      match = await files.match(new Request(new URL(path, url)));
    }
    if (!match) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    const response = await match.handle();
    const { body, encoding } = await encode(path, response, String(req.headers["accept-encoding"] ?? ""));
    // Header rules override the file's own headers, as Netlify applies them (names are case-insensitive).
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(headersFor(options.headerRules, path))) headers.set(name, value);
    headers.set("content-length", String(body.length));
    headers.set("vary", "Accept-Encoding");
    if (encoding) headers.set("content-encoding", encoding);
    res.writeHead(status, Object.fromEntries(headers));
    res.end(req.method === "HEAD" ? undefined : body);
  };

  /** Resolves once every `context.waitUntil` promise has settled. */
  const settled = async () => {
    while (pending.size) await Promise.all(pending);
  };
  return Object.assign(handle, { settled });
}

/** Calls a web-standard handler for a Node request and writes its Response back. */
export async function runFunction(
  req: IncomingMessage,
  res: ServerResponse,
  handler: FetchHandler,
  url: URL,
  pending = new Set<Promise<unknown>>(),
): Promise<void> {
  if (refusedMethod(req, res)) return;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method ?? "GET",
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request, createContext(request, req.socket.remoteAddress ?? "", pending));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (req.method === "HEAD" || !response.body) {
    await response.body?.cancel();
    res.end();
    return;
  }
  // Streamed at the client's pace, as the platform streams it: an export is never held whole in memory here.
  const reader = response.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await Promise.race([once(res, "drain"), once(res, "close")]);
      if (res.destroyed) throw new Error("the client went away");
    }
    res.end();
  } catch {
    // The client went away, or the body failed midway: the connection ends without a complete answer.
    await reader.cancel().catch(() => {});
    res.destroy();
  }
}
