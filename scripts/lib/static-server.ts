import { existsSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import { headersFor, type NetlifyRules, redirectFor } from "./netlify-rules";

/** A web-standard handler, as a Netlify Function v2 exports it. */
export type FetchHandler = (request: Request, context: { ip: string }) => Response | Promise<Response>;
export interface FunctionRoute {
  path: string;
  handler: FetchHandler;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};
const COMPRESSIBLE = new Set([".html", ".css", ".js", ".json", ".xml", ".txt", ".svg"]);

interface Encoded {
  body: Buffer;
  encoding?: "br" | "gzip";
}

/**
 * Serves a built site the way Netlify would: only files under `root`, pretty URLs (`/a` → `a.html`),
 * netlify.toml headers and redirects, `404.html` with a true 404 status, and functions at their paths.
 */
export function createSiteHandler(options: { root: string; rules: NetlifyRules; functions?: FunctionRoute[] }) {
  const root = resolve(options.root);
  const functions = options.functions ?? [];
  const cache = new Map<string, Encoded>();

  const fileFor = (urlPath: string): string | null => {
    const candidates = urlPath.endsWith("/")
      ? [`${urlPath}index.html`]
      : [urlPath, `${urlPath}.html`, `${urlPath}/index.html`];
    for (const candidate of candidates) {
      const file = normalize(join(root, candidate));
      if (file !== root && !file.startsWith(root + sep)) return null;
      if (existsSync(file) && statSync(file).isFile()) return file;
    }
    return null;
  };

  const encode = (file: string, accept: string): Encoded => {
    const ext = extname(file);
    const wants = !COMPRESSIBLE.has(ext)
      ? undefined
      : /\bbr\b/.test(accept)
        ? "br"
        : /\bgzip\b/.test(accept)
          ? "gzip"
          : undefined;
    const key = `${wants ?? "identity"}:${file}`;
    let hit = cache.get(key);
    if (!hit) {
      const raw = readFileSync(file);
      hit =
        wants === "br"
          ? { body: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }), encoding: "br" }
          : wants === "gzip"
            ? { body: gzipSync(raw, { level: 9 }), encoding: "gzip" }
            : { body: raw };
      cache.set(key, hit);
    }
    return hit;
  };

  const sendFile = (req: IncomingMessage, res: ServerResponse, file: string, status: number, urlPath: string) => {
    const { body, encoding } = encode(file, String(req.headers["accept-encoding"] ?? ""));
    const ext = extname(file);
    res.writeHead(status, {
      "Content-Type": TYPES[ext] ?? "application/octet-stream",
      "Content-Length": body.length,
      "Cache-Control": "public, max-age=0, must-revalidate",
      Vary: "Accept-Encoding",
      ...(encoding ? { "Content-Encoding": encoding } : {}),
      ...headersFor(options.rules, urlPath),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(url.pathname);
    } catch {
      urlPath = "\0";
    }

    const fn = functions.find((route) => route.path === url.pathname);
    if (fn) {
      await runFunction(req, res, fn.handler, url);
      return;
    }

    const redirect = redirectFor(options.rules, url.pathname, (p) => fileFor(p) !== null);
    if (redirect) {
      res.writeHead(redirect.status, { Location: redirect.to, ...headersFor(options.rules, url.pathname) });
      res.end();
      return;
    }

    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
      res.end("Method Not Allowed\n");
      return;
    }

    const file = urlPath.includes("\0") ? null : fileFor(urlPath);
    if (file) return sendFile(req, res, file, 200, url.pathname);
    const notFound = join(root, "404.html");
    if (existsSync(notFound)) return sendFile(req, res, notFound, 404, url.pathname);
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("Not Found\n");
  };
}

/** Calls a web-standard handler for a Node request and writes its Response back. */
export async function runFunction(req: IncomingMessage, res: ServerResponse, handler: FetchHandler, url: URL) {
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
  const response = await handler(request, { ip: req.socket.remoteAddress ?? "" });
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(req.method === "HEAD" ? undefined : body);
}
