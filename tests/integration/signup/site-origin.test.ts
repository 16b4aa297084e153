/**
 * Links and origins come from configuration only: a forged Host, a `//host` path or a look-alike Origin can
 * neither point an e-mailed link elsewhere nor pass the cross-site check. Handlers on an embedded database, the
 * local server over real HTTP, and a real SMTP server on loopback.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { createSiteHandler } from "../../../dev/local-netlify/site-server";
import { createStore, type Store } from "../../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../../src/server/config";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { createLinksHandler } from "../../../src/server/links/handler";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { migratedDataDir } from "../../support/helpers";
import { startSmtp, type TestSmtp } from "../../support/smtp";

let smtp: TestSmtp;
let store: Store;
let config: ServerConfig;
const deps = { store: async () => store, config: () => config };
const signup = createWaitlistHandler(deps);
const links = createLinksHandler(deps);
let server: Server;
let port: number;

beforeAll(async () => {
  smtp = await startSmtp();
  store = createStore(await openPgliteDb(migratedDataDir("origin-")));
  config = readConfig({ SMTP_URL: smtp.url, MAIL_FROM: "hello@noosphere.test", RATE_LIMIT_MAX: "1000" });
  const handler = createSiteHandler({
    publish: "dist",
    headerRules: [],
    functions: [
      { path: "/api/waitlist", handler: signup },
      { path: "/waitlist/remove", handler: links },
    ],
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  await smtp.close();
});

/** A raw HTTP request to the local server, with whatever Host and path the sender writes. */
function raw(path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The origins an e-mail's links lead to, each once. */
const origins = (links: string[] = []) => [...new Set(links.map((link) => new URL(link).origin))];
const json = (email: string) => JSON.stringify({ email, termsAccepted: true });
/** A sign-up of `email` posted to `url` (its host as the Host the sender writes), with `headers`. */
const signUpAt = (url: string, email: string, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: json(email) });

/** The handler called as the platform calls it, with `site` as the site's own address. */
async function call(handler: typeof signup, request: Request, site: Partial<Context> = {}) {
  const pending = new Set<Promise<unknown>>();
  const context = { ...createContext(request, "198.51.100.40", pending, "https://noosphere.example"), ...site };
  const response = await handler(request, context as Context);
  while (pending.size) await Promise.all(pending);
  return response;
}

describe("links in e-mails", () => {
  it("point to the site's own address when the Host header is forged", async () => {
    const request = signUpAt("http://evil.example/api/waitlist", "forged.host@example.com");
    expect((await call(signup, request)).status).toBe(201);
    const [mail] = await smtp.waitFor("forged.host@example.com");
    expect(origins(mail?.links)).toEqual(["https://noosphere.example"]);
  });

  it("of a removal request point to the site's own address when the Host header is forged", async () => {
    const request = new Request("http://evil.example/waitlist/remove", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=forged.host%40example.com",
    });
    expect((await call(links, request)).status).toBe(303);
    const [, mail] = await smtp.waitFor("forged.host@example.com", 2);
    expect(origins(mail?.links)).toEqual(["https://noosphere.example"]);
  });

  it("point to SITE_URL when it is set, whatever the platform's address", async () => {
    const saved = config;
    config = readConfig({
      SMTP_URL: smtp.url,
      MAIL_FROM: "hello@noosphere.test",
      RATE_LIMIT_MAX: "1000",
      SITE_URL: "https://www.noosphere.example/ignored/path",
    });
    try {
      const request = signUpAt("http://evil.example/api/waitlist", "site.url@example.com");
      expect((await call(signup, request)).status).toBe(201);
      const [mail] = await smtp.waitFor("site.url@example.com");
      expect(new URL(mail?.links[0] ?? "").origin).toBe("https://www.noosphere.example");
    } finally {
      config = saved;
    }
  });

  it("with no site address known (Netlify's emulator, unlinked), follow only a loopback request", async () => {
    const unknown = { site: { id: "local", name: "local", url: "" } } as Partial<Context>;
    const forged = signUpAt("http://evil.example/api/waitlist", "unknown.site@example.com");
    const before = await store.count();
    expect((await call(signup, forged, unknown)).status).toBe(503);
    expect(await store.count()).toBe(before);
    const local = signUpAt("http://localhost:8888/api/waitlist", "unknown.site@example.com", {
      Origin: "http://localhost:8888",
    });
    expect((await call(signup, local, unknown)).status).toBe(201);
    const mails = smtp.messages.filter((mail) => mail.to === "unknown.site@example.com");
    expect(mails.map((mail) => origins(mail.links))).toEqual([["http://localhost:8888"]]);
  });

  it("from the local server use its own address, whatever Host or `//host` path is sent", async () => {
    const headers = { "Content-Type": "application/json", Host: "evil.example" };
    expect(await raw("/api/waitlist", headers, json("local.host@example.com"))).toBe(201);
    const [mail] = await smtp.waitFor("local.host@example.com");
    expect(new URL(mail?.links[0] ?? "").origin).toBe(`http://localhost:${port}`);
    // `//evil.example/api/waitlist` is a path of this site, not a URL of another: no function answers it.
    expect(await raw("//evil.example/api/waitlist", headers, json("double.slash@example.com"))).toBe(404);
    expect(smtp.messages.filter((m) => m.to === "double.slash@example.com")).toEqual([]);
  });
});

describe("the cross-site check", () => {
  const post = (origin: string, url = "https://noosphere.example/api/waitlist", email = "x@example.com") =>
    signUpAt(url, email, { Origin: origin });
  const preview = { deploy: { context: "deploy-preview", id: "1", published: false } } as Partial<Context>;
  const site = (name: string) => ({ id: "1", name, url: "https://noosphere.example" });

  it.each([
    ["a forged Host with its own Origin", "http://evil.example", "http://evil.example/api/waitlist"],
    ["a `//host` path with that host's Origin", "http://evil.example", "http://localhost:4321//evil.example/api"],
    ["a look-alike origin (the site's as a prefix)", "https://noosphere.example.evil.example", undefined],
    ["the site's address on another port", "https://noosphere.example:8443", undefined],
    ["the site's address over plain HTTP", "http://noosphere.example", undefined],
  ])("refuses %s", async (_what, origin, url) => {
    const before = await store.count();
    expect((await call(signup, post(origin, url))).status).toBe(403);
    expect(await store.count()).toBe(before);
  });

  it("accepts the site's own origin, whatever Host the request names", async () => {
    const request = post("https://noosphere.example", "http://evil.example/api/waitlist", "own.origin@example.com");
    expect((await call(signup, request)).status).toBe(201);
  });

  it("on a deploy preview, accepts only this site's own Netlify addresses", async () => {
    const own = post("https://deploy-preview-7--noosphere.netlify.app");
    expect((await call(signup, own, { ...preview, site: site("noosphere") })).status).toBe(201);
    for (const origin of [
      "https://deploy-preview-7--noosphere-evil.netlify.app",
      "https://deploy-preview-7--evil.netlify.app",
      "https://deploy-preview-7--noosphere.netlify.app.evil.example",
    ]) {
      expect((await call(signup, post(origin), { ...preview, site: site("noosphere") })).status).toBe(403);
    }
  });

  it("in production, refuses even this site's preview addresses", async () => {
    const production = { deploy: { context: "production", id: "1", published: true }, site: site("noosphere") };
    const request = post("https://deploy-preview-7--noosphere.netlify.app");
    expect((await call(signup, request, production as Partial<Context>)).status).toBe(403);
  });
});

describe("methods the local server cannot hand to a function", () => {
  it.each(["TRACE"])("%s on a function's path is a 405, not a 500", async (method) => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/api/waitlist", method }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(405);
  });
});
