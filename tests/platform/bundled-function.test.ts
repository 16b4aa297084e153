/**
 * The waitlist function (and /join's) as Netlify deploys it: zipped by @netlify/zip-it-and-ship-it from netlify.toml,
 * unpacked outside the project, imported and called with a Request and a platform-shaped context, against
 * PostgreSQL over TCP and through Neon's HTTP protocol. Each valid sign-up is exactly one database round trip,
 * counted on the wire (an instance's first request also reads the server's secret, once). Needs PostgreSQL on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 in CI makes it mandatory).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { unzipSync } from "fflate";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { bundleFunctions, unpackFunction } from "../../scripts/lib/bundle-functions";
import { type SqlProxy, startSqlProxy } from "../support/neon-sql-proxy";
import { startWireCounter, type WireCounter } from "../support/pg-wire-counter";
import { createMigratedDatabase, postgresReachable } from "../support/postgres";
import { startSmtp } from "../support/smtp";

type Handler = (request: Request, context: ReturnType<typeof createContext>) => Promise<Response>;
const reachable = await postgresReachable();
const work = mkdtempSync(join(tmpdir(), "bundled-"));
let zip: string;
let entry: string;
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let counter: WireCounter;
let proxy: SqlProxy;
let instances = 0;

/** A fresh instance of the bundled module, configured by `env` as a deployment would be. */
async function load(env: Record<string, string>): Promise<Handler> {
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries({ RATE_LIMIT_MAX: "1000", ...env })) vi.stubEnv(name, value);
  const mod = (await import(/* @vite-ignore */ `${pathToFileURL(entry).href}?instance=${++instances}`)) as {
    default: Handler;
  };
  return mod.default;
}

const signUp = (handler: Handler, email: string, pending = new Set<Promise<unknown>>()) =>
  handler(
    new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, termsAccepted: true, connect: "bundled" }),
    }),
    createContext(new Request("http://localhost/api/waitlist"), "192.0.2.10", pending),
  );

beforeAll(async () => {
  const built = await bundleFunctions(join(work, "zips"));
  zip = built.find((fn) => fn.name === "waitlist")?.path ?? "";
  entry = unpackFunction(zip, "waitlist", join(work, "waitlist"));
  if (!reachable) return;
  database = await createMigratedDatabase("bundled_fn");
  counter = await startWireCounter(database.url);
  proxy = await startSqlProxy();
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await counter?.close();
  await proxy?.close();
  await database?.drop();
});

describe("the deployable waitlist function", () => {
  it("ships no embedded database and no migrations tool", () => {
    const files = Object.keys(unzipSync(readFileSync(zip)));
    expect(files).toContain("netlify/functions/waitlist.mjs");
    expect(files.filter((file) => /pglite|database-dev|pg-gateway/.test(file))).toEqual([]);
    // The throwaway-domain list is the confirmation's (links/throwaway.ts): nothing the sign-up imports reaches it.
    expect(files.filter((file) => file.includes("mailchecker"))).toEqual([]);
  });

  it.skipIf(!reachable)("answers 201 over PostgreSQL TCP with one round trip per valid sign-up", async () => {
    const handler = await load({ DATABASE_URL: counter.url });
    // The first request of an instance also reads the server's secret, once.
    for (const [email, trips] of [
      ["tcp1@example.com", 2],
      ["tcp2@example.com", 1],
      ["TCP1@example.com", 1],
    ] as const) {
      const before = counter.roundTrips();
      const res = await signUp(handler, email);
      expect(res.status).toBe(201);
      expect(counter.roundTrips() - before).toBe(trips);
    }
  });

  it.skipIf(!reachable)("answers 201 through Neon's HTTP protocol with one request per valid sign-up", async () => {
    const handler = await load({
      DATABASE_URL: database.url,
      DATABASE_DRIVER: "neon-http",
      NEON_FETCH_ENDPOINT: proxy.url,
    });
    for (const [email, requests] of [
      ["http1@example.com", 2],
      ["http2@example.com", 1],
      ["Http1@Example.com", 1],
    ] as const) {
      const before = proxy.requests.length;
      const res = await signUp(handler, email);
      expect(res.status).toBe(201);
      expect(proxy.requests.length - before).toBe(requests);
    }
  });

  it.skipIf(!reachable)(
    "with SMTP_URL set, sends the confirmation from the zip's own nodemailer (ESM only)",
    async () => {
      const smtp = await startSmtp();
      try {
        const handler = await load({
          DATABASE_URL: counter.url,
          SMTP_URL: smtp.url,
          MAIL_FROM: "hello@noosphere.test",
        });
        const pending = new Set<Promise<unknown>>();
        const res = await signUp(handler, "mail@example.com", pending);
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
        const [mail] = await smtp.waitFor("mail@example.com");
        expect(mail?.links.some((href) => href.includes("/waitlist/confirm?token="))).toBe(true);
        expect(
          Object.keys(unzipSync(readFileSync(zip))).filter((file) => file.includes("nodemailer/dist/cjs")),
        ).toEqual([]);
        await Promise.all(pending);
      } finally {
        await smtp.close();
      }
    },
  );

  it.skipIf(!reachable)(
    "a sign-up by a share code records its referral, pending, without the throwaway list",
    async () => {
      const handler = await load({ DATABASE_URL: database.url });
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT referral_code FROM waitlist WHERE email = 'tcp1@example.com'");
        const res = await handler(
          new Request("http://localhost/api/waitlist", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              email: "friend@mailinator.com",
              termsAccepted: true,
              referral: rows[0]?.referral_code,
            }),
          }),
          createContext(new Request("http://localhost/api/waitlist"), "192.0.2.11", new Set()),
        );
        expect(res.status).toBe(201);
        const referral = await client.query(
          "SELECT r.outcome FROM waitlist_referral r JOIN waitlist w ON w.id = r.referred_id WHERE w.email = $1",
          ["friend@mailinator.com"],
        );
        expect(referral.rows).toEqual([{ outcome: "pending" }]);
      } finally {
        await client.end();
      }
    },
  );

  it.skipIf(!reachable)("stored exactly the distinct addresses", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query("SELECT email FROM waitlist ORDER BY id");
    await client.end();
    expect(rows.map((row) => row.email)).toEqual([
      "tcp1@example.com",
      "tcp2@example.com",
      "http1@example.com",
      "http2@example.com",
      "mail@example.com",
      "friend@mailinator.com",
    ]);
  });
});

describe("the deployable /join page", () => {
  it("ships the built page beside its module, and serves it with the referring site in the form", async () => {
    const page = join(work, "join-page");
    const mod = (await import(
      /* @vite-ignore */ pathToFileURL(unpackFunction(join(work, "zips", "join-page.zip"), "join-page", page)).href
    )) as { default: (request: Request) => Promise<Response> };
    const response = await mod.default(
      new Request("https://noosphere.test/join", { headers: { Referer: "https://news.example.com/" } }),
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('id="join-referrer" value="https://news.example.com"');
    // The same page as the build's, but for that value.
    expect(html.replace(' value="https://news.example.com"', "")).toBe(readFileSync("dist/join.html", "utf8"));
    // Compressed by the zipped function itself, as a browser asks (a function's answer is not compressed for it).
    const compressed = await mod.default(
      new Request("https://noosphere.test/join", { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } }),
    );
    expect(compressed.headers.get("content-encoding")).toBe("br");
    expect(compressed.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await compressed.arrayBuffer());
    expect(body.length).toBeLessThan(14_600);
    expect(brotliDecompressSync(body).toString()).toBe(readFileSync("dist/join.html", "utf8"));
  });
});
