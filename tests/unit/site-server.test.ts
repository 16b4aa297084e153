import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteHandler, loadHeaderRules } from "../../dev/local-netlify/site-server";

let server: Server;
let base: string;
let handler: ReturnType<typeof createSiteHandler>;
let publish: string;
const background: string[] = [];
/**
 * What the echo function's background work waits for: open unless a test holds it. A timer decided the order
 * before, and lost under load (the work was done before the response had arrived).
 */
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "site-"));
  publish = join(dir, "dist");
  mkdirSync(join(publish, "_astro"), { recursive: true });
  writeFileSync(join(publish, "index.html"), "<h1>home</h1>");
  writeFileSync(join(publish, "product.html"), "<h1>product</h1>".repeat(100));
  writeFileSync(join(publish, "404.html"), "<h1>missing</h1>");
  writeFileSync(join(publish, "_astro", "app.js"), "console.log(1)");
  writeFileSync(join(dir, "secret.txt"), "outside dist");
  writeFileSync(
    join(dir, "netlify.toml"),
    `[[headers]]
  for = "/*"
  [headers.values]
    X-Content-Type-Options = "nosniff"
[[headers]]
  for = "/_astro/*"
  [headers.values]
    Cache-Control = "public, max-age=31536000, immutable"
`,
  );
  handler = createSiteHandler({
    publish,
    headerRules: await loadHeaderRules(join(dir, "netlify.toml"), publish),
    functions: [
      {
        path: "/api/echo",
        handler: async (req, context) => {
          context.waitUntil(gate.then(() => background.push("done")));
          return Response.json({ method: req.method, body: await req.text(), ip: context.ip, deploy: context.deploy });
        },
      },
    ],
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the local site server", () => {
  it.each(["/product", "/product/", "/product.html"])(
    "serves %s as Netlify does, with netlify.toml headers",
    async (path) => {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.text()).toContain("<h1>product</h1>");
    },
  );

  it("gives assets under /_astro/ their year-long cache", async () => {
    const asset = await fetch(`${base}/_astro/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("matches header rules as Netlify's parser does: case-insensitively, and /_astro/* also matches /_astro", async () => {
    const rules = await loadHeaderRules(join(publish, "..", "netlify.toml"), publish);
    const astro = rules.find((rule) => rule.for === "/_astro/*");
    expect(astro?.values["Cache-Control"]).toBe("public, max-age=31536000, immutable");
    expect(astro?.forRegExp.test("/_ASTRO/x.js")).toBe(true);
    expect(astro?.forRegExp.test("/_astro")).toBe(true);
    expect(astro?.forRegExp.test("/fonts/x.woff2")).toBe(false);
  });

  it("answers a missing asset with the 404 page's headers, never an asset's year-long cache", async () => {
    const missing = await fetch(`${base}/_astro/gone.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
  });

  it("answers unknown paths with 404.html and a true 404 status", async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("<h1>missing</h1>");
  });

  it.each(["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%00"])(
    "never serves a file outside the publish folder: %s",
    async (path) => {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("outside dist");
    },
  );

  it.each(["br", "gzip"])("compresses text with %s when the client accepts it", async (encoding) => {
    const res = await fetch(`${base}/product`, { headers: { "accept-encoding": encoding } });
    expect(res.headers.get("content-encoding")).toBe(encoding);
    expect(await res.text()).toContain("<h1>product</h1>");
  });

  it("routes function paths to their handler with method, body and a platform-shaped context", async () => {
    const res = await fetch(`${base}/api/echo`, { method: "POST", body: "hello" });
    expect(await res.json()).toEqual({
      method: "POST",
      body: "hello",
      ip: "127.0.0.1",
      deploy: { context: "dev", id: "0", published: false },
    });
  });

  it("waits for context.waitUntil work before it reports settled", async () => {
    await handler.settled();
    background.length = 0;
    let release = () => {};
    gate = new Promise<void>((resolve) => (release = resolve));
    try {
      await fetch(`${base}/api/echo`, { method: "POST", body: "later" });
      const settled = handler.settled().then(() => "settled");
      // A turn of the event loop later, settled still waits on the held work.
      const turn = new Promise<string>((resolve) => setImmediate(() => resolve("waiting")));
      expect(await Promise.race([settled, turn])).toBe("waiting");
      expect(background).toEqual([]);
      release();
      expect(await settled).toBe("settled");
      expect(background).toEqual(["done"]);
    } finally {
      release();
      gate = Promise.resolve();
    }
  });
});
