import { randomUUID } from "node:crypto";
import type { Context } from "@netlify/functions";
import { readCookie } from "../../src/server/http/cookies";

/**
 * The second argument Netlify passes to a v2 function, as `@netlify/functions` types it, for a request the
 * local server answers. Values the platform would know (account, geography) are local placeholders; the site's
 * address is the one the server was started on (`siteUrl`; by default the request's, which the local servers
 * build from their own address, never from the Host header). `waitUntil` work is tracked so the server can
 * wait for it before it stops.
 */
export function createContext(
  request: Request,
  ip: string,
  pending: Set<Promise<unknown>>,
  siteUrl: string = new URL(request.url).origin,
): Context {
  const url = new URL(request.url);
  return {
    account: { id: "local" },
    // Reading the request's cookies works as on Netlify; setting one through the context would be dropped here
    // (this host adds no Set-Cookie to the answer), so it throws: a function sets its cookie on its Response.
    cookies: {
      get: (name: string) => readCookie(request, name),
      set: () => {
        throw new Error(
          "context.cookies.set is not supported by the local Netlify host: set the cookie on the Response",
        );
      },
      delete: () => {
        throw new Error("context.cookies.delete is not supported by the local Netlify host: expire it on the Response");
      },
    } as unknown as Context["cookies"],
    deploy: { context: "dev", id: "0", published: false },
    geo: {},
    ip,
    json: (input: unknown) => Response.json(input),
    log: console.log,
    next: () => Promise.reject(new Error("context.next() is for edge functions")),
    params: {},
    requestId: randomUUID(),
    rewrite: (to: string | URL) => fetch(new URL(to, url)),
    server: { region: "local" },
    site: { id: "local", name: "local", url: siteUrl },
    url,
    waitUntil: (promise: Promise<unknown>) => {
      const tracked = promise.catch(() => {}).finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
  };
}
