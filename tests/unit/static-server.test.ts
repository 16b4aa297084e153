import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNetlifyRules } from "../../scripts/lib/netlify-rules";
import { createSiteHandler } from "../../scripts/lib/static-server";

let server: Server;
let base: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "site-"));
  const root = join(dir, "dist");
  mkdirSync(join(root, "_astro"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<h1>home</h1>");
  writeFileSync(join(root, "product.html"), "<h1>product</h1>".repeat(100));
  writeFileSync(join(root, "404.html"), "<h1>missing</h1>");
  writeFileSync(join(root, "_astro", "app.js"), "console.log(1)");
  writeFileSync(join(dir, "secret.txt"), "outside dist");
  const rules = parseNetlifyRules(`
[[headers]]
  for = "/*"
  [headers.values]
    X-Content-Type-Options = "nosniff"
[[redirects]]
  from = "/about-us"
  to = "/#about"
  status = 301
`);
  const handler = createSiteHandler({
    root,
    rules,
    functions: [
      { path: "/api/echo", handler: async (req) => Response.json({ method: req.method, body: await req.text() }) },
    ],
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the local site server", () => {
  it("serves pages by pretty URL with netlify.toml headers", async () => {
    const res = await fetch(`${base}/product`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toContain("<h1>product</h1>");
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it("answers unknown paths with 404.html and a true 404 status", async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("<h1>missing</h1>");
  });

  it("never serves a file outside the publish folder", async () => {
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%00"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("outside dist");
    }
  });

  it("compresses text when the client accepts it", async () => {
    const res = await fetch(`${base}/product`, { headers: { "accept-encoding": "br" } });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(await res.text()).toContain("<h1>product</h1>");
  });

  it("applies redirects", async () => {
    const res = await fetch(`${base}/about-us`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/#about");
  });

  it("refuses writes to static files", async () => {
    const res = await fetch(`${base}/product`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  it("routes function paths to their handler with method and body", async () => {
    const res = await fetch(`${base}/api/echo`, { method: "POST", body: "hello" });
    expect(await res.json()).toEqual({ method: "POST", body: "hello" });
  });
});
