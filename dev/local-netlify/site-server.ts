/**
 * Serves a built site the way Netlify does, with Netlify's own parts: `@netlify/config` reads netlify.toml
 * as the build does, `@netlify/static` maps a URL to a file (`/product`, `/product/` and `/product.html`
 * alike), `@netlify/headers-parser` matches header rules (case-insensitively, `/_astro/*` matching
 * `/_astro` too). Added here, as a CDN adds them: brotli/gzip, `404.html` with a true 404 for every
 * unmatched path, and v2 functions at their `config.path`, called with a platform-shaped context within
 * Netlify's limits (./run-function.ts, ./limits.ts).
 * tests/platform/netlify-parity.test.ts holds the answers equal to `@netlify/dev`'s.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import { parseAllHeaders } from "@netlify/headers-parser";
import { StaticHandler } from "@netlify/static";
import { BACKGROUND_SUFFIX, limitsWith, type NetlifyLimits } from "./limits";
import { createRateLimiter, type RateLimitRule } from "./rate-limit";
import { type FetchHandler, refusedMethod, runBackground, runFunction } from "./run-function";

export type { FetchHandler } from "./run-function";
export { runFunction, runScheduled } from "./run-function";
export interface FunctionRoute {
  /** The function's name (its file's): its paths share one rate limit. */
  name?: string;
  path: string;
  handler: FetchHandler;
  /** The methods it answers (config.method); others go on to the files. Absent: every method. */
  methods?: string[];
  /** config.rateLimit (./rate-limit.ts). */
  rateLimit?: RateLimitRule;
}
export interface HeaderRule {
  for: string;
  forRegExp: RegExp;
  values: Record<string, string>;
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
  /** Whether functions' config.rateLimit applies (default: yes); the test servers, many visitors at once, turn it off. */
  rateLimits?: boolean;
  /** Netlify's limits on the functions (./limits.ts); tests shorten the times. */
  limits?: Partial<NetlifyLimits>;
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

/**
 * Whether a request's path is a function's, as Netlify matches them: whatever the case, and with or without a
 * trailing slash (`/join/` and `/JOIN` run the function at `/join`; tests/platform/netlify-parity.test.ts).
 */
function samePath(route: string, path: string): boolean {
  const plain = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p).toLowerCase();
  return plain(route) === plain(path);
}

export function createSiteHandler(options: SiteOptions) {
  const notFound = options.notFound ?? { path: "/404.html", status: 404 };
  const files = new StaticHandler({ directory: options.publish });
  const functions = options.functions ?? [];
  const limits = limitsWith(options.limits);
  const encoded = new Map<string, { body: Buffer; encoding?: "br" | "gzip" }>();
  const pending = new Set<Promise<unknown>>();
  const rateLimited = options.rateLimits === false ? null : createRateLimiter();

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
      (route) => samePath(route.path, url.pathname) && (!route.methods || route.methods.includes(method)),
    );
    if (fn) {
      const refused =
        fn.rateLimit && rateLimited?.(fn.name ?? fn.path, fn.rateLimit, req.socket.remoteAddress ?? "", url.pathname);
      if (refused) {
        res.writeHead(refused.status, Object.fromEntries(refused.headers)).end(await refused.text());
        return;
      }
      if (fn.name?.endsWith(BACKGROUND_SUFFIX)) return runBackground(req, res, fn.handler, url, pending, limits);
      return runFunction(req, res, fn.handler, url, pending, limits);
    }

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
