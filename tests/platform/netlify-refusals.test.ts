/**
 * What the local host refuses is what Netlify does: each refusal in dev/local-netlify/unsupported.ts stands for a
 * feature Netlify's own emulator (`@netlify/dev`) serves. A throw-away project per feature, run by the emulator, then
 * loaded by the host: the emulator answers it, the host refuses it by name. No build needed.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "@netlify/config";
import { afterEach, expect, it } from "vitest";
import { loadFunctions } from "../../dev/local-netlify/functions";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { refuseSiteConfig } from "../../dev/local-netlify/unsupported";
import { type Emulator, startEmulator } from "./netlify-dev";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

/** A project with one function (`fn.mjs`) and netlify.toml's `extra` lines, in a folder of its own. */
function project(fn: string, extra = "", files: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), "refusal-project-"));
  mkdirSync(join(root, "netlify", "functions"), { recursive: true });
  mkdirSync(join(root, "public"));
  writeFileSync(
    join(root, "netlify.toml"),
    `[build]\n  publish = "public"\n  functions = "netlify/functions"\n${extra}`,
  );
  writeFileSync(join(root, "public", "404.html"), "<h1>missing</h1>");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "public", name), text);
  writeFileSync(join(root, "netlify", "functions", "fn.mjs"), fn);
  return root;
}

it("a path pattern: Netlify routes /items/42 with its param; the host refuses the function", async () => {
  const root = project(
    'export default async (req, context) => new Response("item " + context.params.id);\nexport const config = { path: "/items/:id" };\n',
  );
  emulator = await startEmulator({ database: false, projectRoot: root });
  const res = await emulator.fetch("/items/42");
  expect([res.status, await res.text()]).toEqual([200, "item 42"]);
  await expect(loadFunctions(join(root, "netlify", "functions"))).rejects.toThrow(
    'netlify/functions/fn: config.path "/items/:id" is a pattern',
  );
});

it("a cookie set through the context: Netlify sends it; the host refuses the call", async () => {
  const root = project(
    'export default async (req, context) => { context.cookies.set({ name: "seen", value: "1" }); return new Response("ok"); };\nexport const config = { path: "/cookie" };\n',
  );
  emulator = await startEmulator({ database: false, projectRoot: root });
  const res = await emulator.fetch("/cookie");
  expect([res.status, res.headers.get("set-cookie")?.startsWith("seen=1")]).toEqual([200, true]);
  const [route] = await loadFunctions(join(root, "netlify", "functions"));
  const request = new Request("http://localhost/cookie");
  await expect(route?.handler(request, createContext(request, "127.0.0.1", new Set()))).rejects.toThrow(
    "context.cookies.set is not supported by the local Netlify host",
  );
});

it("a redirect: Netlify applies it; the host refuses the site", async () => {
  const root = project(
    'export default async () => new Response("ok");\nexport const config = { path: "/fn" };\n',
    '[[redirects]]\n  from = "/old"\n  to = "/new.html"\n  status = 301\n',
    { "new.html": "<h1>new</h1>" },
  );
  emulator = await startEmulator({ database: false, projectRoot: root });
  const res = await emulator.fetch("/old", { redirect: "manual" });
  expect([res.status, new URL(res.headers.get("location") ?? "", "http://x").pathname]).toEqual([301, "/new.html"]);
  const { config } = await resolveConfig({ cwd: root, repositoryRoot: root, offline: true, context: "production" });
  expect(() => refuseSiteConfig(config, join(root, "public"))).toThrow("holds redirects");
});
