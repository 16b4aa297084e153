/**
 * The local Netlify host refuses what it does not do as Netlify does, instead of ignoring it: a function relying on
 * it would work here and fail deployed. The site configs are read by Netlify's own parser (@netlify/config), as
 * npm start reads netlify.toml, from throw-away folders.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "@netlify/config";
import { describe, expect, it } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { refuseFunctionConfig, refuseSiteConfig } from "../../dev/local-netlify/unsupported";

describe("a function's config", () => {
  it.each([
    [{ path: "/api/waitlist" }],
    [{ path: ["/join"], method: "GET" }],
    [{ path: "/admin", method: ["GET", "POST"] }],
    [{ schedule: "@daily" }],
  ])("routes %j", (config) => {
    expect(() => refuseFunctionConfig("fn", config)).not.toThrow();
  });

  it.each([
    [{ path: "/api/:id" }, 'netlify/functions/fn: config.path "/api/:id" is a pattern'],
    [{ path: "/files/*" }, 'netlify/functions/fn: config.path "/files/*" is a pattern'],
    [{ path: ["/ok", "/items/{id}"] }, 'netlify/functions/fn: config.path "/items/{id}" is a pattern'],
    [{ path: "/x", preferStatic: true }, "netlify/functions/fn: config.preferStatic is not supported"],
    [{ path: "/x", excludedPath: "/x/y" }, "netlify/functions/fn: config.excludedPath is not supported"],
    [{ path: "/x", rateLimit: { windowLimit: 1 } }, 'netlify/functions/fn: config.rateLimit {"windowLimit":1} is not'],
  ])("refuses %j", (config, message) => {
    expect(() => refuseFunctionConfig("fn", config)).toThrow(message);
  });
});

describe("the context's cookies", () => {
  const context = () =>
    createContext(new Request("http://localhost/x", { headers: { cookie: "a=1; theme=dark=ish" } }), "", new Set());

  it("reads the request's cookies as Netlify does", () => {
    expect([context().cookies.get("theme"), context().cookies.get("a"), context().cookies.get("none")]).toEqual([
      "dark=ish",
      "1",
      undefined,
    ]);
  });

  it("refuses to set or delete one, which this host would drop", () => {
    expect(() => context().cookies.set("a", "2")).toThrow(
      "context.cookies.set is not supported by the local Netlify host: set the cookie on the Response",
    );
    expect(() => context().cookies.delete("a")).toThrow("context.cookies.delete is not supported");
  });
});

describe("the site's netlify.toml, as @netlify/config reads it", () => {
  async function site(toml: string, files: Record<string, string> = {}) {
    const root = mkdtempSync(join(tmpdir(), "host-refuses-"));
    writeFileSync(join(root, "netlify.toml"), `[build]\n  publish = "public"\n${toml}`);
    mkdirSync(join(root, "public"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "public", name), text);
    const { config } = await resolveConfig({ cwd: root, repositoryRoot: root, offline: true, context: "production" });
    return () => refuseSiteConfig(config, join(root, "public"));
  }

  it("serves this project's own netlify.toml", async () => {
    const { config } = await resolveConfig({ cwd: process.cwd(), offline: true, context: "production" });
    expect(() => refuseSiteConfig(config, config.build.publish)).not.toThrow();
  });

  it.each([
    ['[[redirects]]\n  from = "/old"\n  to = "/new"\n', {}, "holds redirects"],
    ["", { _redirects: "/old /new 301\n" }, "holds redirects"],
    ['[[edge_functions]]\n  path = "/x"\n  function = "x"\n', {}, "declares edge functions"],
    ['[functions."nightly"]\n  schedule = "@daily"\n', {}, '[functions."nightly"] schedule: not supported'],
  ])("refuses %j %j", async (toml, files, message) => {
    expect(await site(toml, files)).toThrow(message);
  });
});
