/**
 * GET /join answered by its function: the built page, byte for byte, but for the referring site's origin in the
 * form's hidden field, taken from the request's Referer. A page from a temporary folder stands in for the build.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createJoinPageHandler } from "../../src/server/signup/join-page";

const REFERRAL = `<input type="hidden" name="referral" id="join-referral">`;
const NOTE = `<p hidden data-friend-note>A friend invited you to join.</p>`;
const PAGE = `<!doctype html><title>Join</title><form>${NOTE}<input type="hidden" name="referrer" id="join-referrer">${REFERRAL}</form>`;
const dir = mkdtempSync(join(tmpdir(), "join-page-"));
const write = (name: string, html: string) => {
  writeFileSync(join(dir, name), html);
  return pathToFileURL(join(dir, name));
};
const handler = createJoinPageHandler(write("join.html", PAGE));
const get = (referer?: string, method = "GET", path = "/join") =>
  handler(new Request(`http://localhost${path}`, { method, headers: referer ? { Referer: referer } : {} }));

describe("the field carries the referring site's origin, and nothing else of its address", () => {
  it.each([
    ["https://news.example.com/issues/42?private=yes", ' value="https://news.example.com"'],
    ["http://blog.example.org:8080/post", ' value="http://blog.example.org:8080"'],
    ["http://localhost/product", ' value="http://localhost"'], // this site: the waitlist function's rule drops it
    // `$` is kept in a host, and `$'` or `` $` `` in a string replacement would paste the page into the attribute.
    ["http://a$'b.example/", ' value="http://a$&#39;b.example"'],
    ["http://x$`y.example/", ' value="http://x$`y.example"'],
    ["android-app://com.google.android.gm/", ""],
    ["file:///home/me/page.html", ""],
    ["not a url", ""],
    [undefined, ""],
  ])("Referer %s", async (referer, value) => {
    const response = await get(referer);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      `<!doctype html><title>Join</title><form>${NOTE}<input type="hidden" name="referrer" id="join-referrer"${value}>${REFERRAL}</form>`,
    );
  });
});

describe("the other field carries the share code the visit came by, from /join's address or this site's page", () => {
  it.each([
    ["/join?via=7k2mq9xw4p", undefined, "7k2mq9xw4p"],
    ["/join?via=7K2MQ9XW4P", undefined, "7k2mq9xw4p"],
    ["/join", "http://localhost/?via=7k2mq9xw4p", "7k2mq9xw4p"],
    ["/join", "http://localhost/product?utm_source=x&via=abcdefghjk", "abcdefghjk"],
    // Another site's address is not this site's share link; malformed codes are no code.
    ["/join", "https://elsewhere.example/?via=7k2mq9xw4p", ""],
    ["/join?via=short", undefined, ""],
    ["/join?via=7k2mq9xw4o", undefined, ""],
    ["/join?via=%22%3E%3Cscript%3E", undefined, ""],
  ])("%s, Referer %s", async (path, referer, code) => {
    const html = await (await get(referer, "GET", path)).text();
    expect(html).toContain(`id="join-referral"${code ? ` value="${code}"` : ""}>`);
    // A friend's link shows that a friend invited them (no name, no address); any other visit, nothing.
    expect(html).toContain(
      code
        ? "<p data-friend-note>A friend invited you to join.</p>"
        : "<p hidden data-friend-note>A friend invited you to join.</p>",
    );
  });
});

it("sends the site's headers and is never kept for another visit", async () => {
  const response = await get("https://news.example.com/");
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("content-security-policy")).toBe(
    "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  );
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("set-cookie")).toBeNull();
  const head = await get("https://news.example.com/", "HEAD");
  expect([head.status, await head.text()]).toEqual([200, ""]);
});

it("answers only reading: a POST to /join is 405, the form posts elsewhere", async () => {
  const response = await get(undefined, "POST");
  expect([response.status, response.headers.get("allow"), await response.text()]).toEqual([
    405,
    "GET, HEAD",
    "Method not allowed. Use GET.\n",
  ]);
});

it("refuses a page without the field rather than serve a form that drops the referrer", async () => {
  const broken = createJoinPageHandler(write("broken.html", "<!doctype html><form></form>"));
  await expect(broken(new Request("http://localhost/join"))).rejects.toThrow('has no single id="join-referrer"');
});

describe("the page is compressed as the client accepts it, as the CDN compresses the other pages", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["BR", "br"],
    ["identity", null],
    ["", null],
  ])("Accept-Encoding %j → %s", async (accept, encoding) => {
    const response = await handler(
      new Request("http://localhost/join?via=7k2mq9xw4p", { headers: { "Accept-Encoding": accept } }),
    );
    expect(response.headers.get("content-encoding")).toBe(encoding);
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(await response.arrayBuffer());
    const html = encoding === "br" ? brotliDecompressSync(bytes) : encoding === "gzip" ? gunzipSync(bytes) : bytes;
    expect(html.toString()).toContain('id="join-referral" value="7k2mq9xw4p">');
  });
});
