import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { headersFor, matchPattern, parseNetlifyRules, redirectFor } from "../../scripts/lib/netlify-rules";

const rules = parseNetlifyRules(`
[build]
  publish = "out"
[[headers]]
  for = "/*"
  [headers.values]
    X-Frame-Options = "DENY"
    Cache-Control = "no-cache"
[[headers]]
  for = "/_astro/*"
  [headers.values]
    Cache-Control = "public, max-age=31536000, immutable"
[[redirects]]
  from = "/blog/:slug"
  to = "/news/:slug"
  status = 301
[[redirects]]
  from = "/old/*"
  to = "/new/:splat"
  status = 302
  force = true
`);

describe("matchPattern", () => {
  it("matches splats and placeholders and captures them", () => {
    expect(matchPattern("/*", "/anything/at/all")).toEqual({ splat: "anything/at/all" });
    expect(matchPattern("/blog/:slug", "/blog/hello")).toEqual({ slug: "hello" });
    expect(matchPattern("/blog/:slug", "/blog/a/b")).toBeNull();
    expect(matchPattern("/_astro/*", "/fonts/x.woff2")).toBeNull();
  });

  it("treats regex characters in patterns literally", () => {
    expect(matchPattern("/a.b", "/axb")).toBeNull();
    expect(matchPattern("/a.b", "/a.b")).toEqual({});
  });
});

describe("headersFor", () => {
  it("merges every matching rule, later rules winning", () => {
    expect(headersFor(rules, "/_astro/app.js")).toEqual({
      "X-Frame-Options": "DENY",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
    expect(headersFor(rules, "/product")["Cache-Control"]).toBe("no-cache");
  });
});

describe("redirectFor", () => {
  it("substitutes placeholders and splats", () => {
    expect(redirectFor(rules, "/blog/hello", () => false)).toEqual({ to: "/news/hello", status: 301 });
    expect(redirectFor(rules, "/old/a/b", () => true)).toEqual({ to: "/new/a/b", status: 302 });
  });

  it("lets an existing file shadow an unforced rule", () => {
    expect(redirectFor(rules, "/blog/hello", () => true)).toBeNull();
  });

  it("reads the publish folder", () => {
    expect(rules.publish).toBe("out");
  });
});

describe("the project's netlify.toml", () => {
  const project = parseNetlifyRules(readFileSync("netlify.toml", "utf8"));

  it("publishes dist/ and caches hashed assets for a year", () => {
    expect(project.publish).toBe("dist");
    expect(headersFor(project, "/_astro/Faq.abc123.js")["Cache-Control"]).toBe("public, max-age=31536000, immutable");
  });

  it("does not cache pages as immutable", () => {
    expect(headersFor(project, "/product")["Cache-Control"] ?? "").not.toContain("immutable");
  });
});
