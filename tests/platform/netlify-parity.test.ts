/**
 * `npm start`'s server and Netlify's emulator (`@netlify/dev`) answer the same requests with the same status,
 * security and cache headers. Every browser test runs against our server; this holds it to the platform.
 */
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolveConfig } from "@netlify/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFunctions } from "../../dev/local-netlify/functions";
import { createSiteHandler, loadHeaderRules } from "../../dev/local-netlify/site-server";
import { type Emulator, ORIGIN, startEmulator } from "./netlify-dev";

const COMPARED = [
  "content-type",
  "cache-control",
  "content-security-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "allow",
  "location",
];
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const asset = `/_astro/${readdirSync("dist/_astro").find((file) => file.endsWith(".js"))}`;
const CASES: Array<[string, string, RequestInit?]> = [
  ["GET", "/"],
  ["GET", "/product"],
  ["GET", "/product/"],
  ["GET", "/PRODUCT"],
  ["GET", "/terms-of-service.html"],
  ["GET", asset],
  ["GET", "/fonts/inter-latin-var.woff2"],
  ["GET", "/no-such-page"],
  ["GET", "/api/waitlist"],
  // /join is its function's answer, before the file of that name (src/server/signup/join-page.ts); POST is not its method.
  ["GET", "/join", { headers: { Referer: "https://news.example.com/issues/42" } }],
  ["HEAD", "/join"],
  // A function's path matches whatever the case and with a trailing slash, on Netlify and here.
  ["GET", "/join/", { headers: { Referer: "https://news.example.com/" } }],
  ["GET", "/JOIN"],
  ["POST", "/API/WAITLIST", { headers: { "Content-Type": "text/plain" }, body: "hello" }],
  ["POST", "/join", { headers: FORM, body: "email=a%40example.com" }],
  ["POST", "/api/waitlist", { headers: { "Content-Type": "text/plain" }, body: "hello" }],
  // An e-mail's link: GET is the static page (the function answers POST only), its button's POST the function.
  ["GET", "/waitlist/confirm?token=abc"],
  ["GET", "/waitlist/remove"],
  ["GET", "/waitlist/remove/sent"],
  ["POST", "/waitlist/confirm?token=abc", { headers: FORM }],
  ["POST", "/waitlist/leave", { headers: FORM, body: "token=abc" }],
  ["POST", "/waitlist/remove", { headers: { "Content-Type": "text/plain" }, body: "hello" }],
  // The console (off here: no ADMIN_EMAILS or token) and the product's redemption (no INVITE_REDEEM_TOKEN: 404).
  ["GET", "/admin"],
  ["GET", "/admin/sign-in/confirm?token=abc"],
  ["POST", "/api/invites/redeem", { headers: { "Content-Type": "application/json" }, body: "{}" }],
  // A path that starts with `//` is a path of this site, not another host's URL: no function answers it.
  ["POST", "//evil.example/api/waitlist", { headers: { "Content-Type": "application/json" }, body: "{}" }],
];

let emulator: Emulator;
let server: Server;
let base: string;

beforeAll(async () => {
  emulator = await startEmulator({ database: false });
  const { config, configPath } = await resolveConfig({ cwd: process.cwd(), offline: true, context: "production" });
  const handler = createSiteHandler({
    publish: config.build.publish,
    headerRules: await loadHeaderRules(configPath ?? "netlify.toml", config.build.publish),
    functions: await loadFunctions(),
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const summary = (res: Response) => ({
  status: res.status,
  ...Object.fromEntries(COMPARED.map((name) => [name, res.headers.get(name)])),
});

describe("npm start's server answers as @netlify/dev does", () => {
  it.each(CASES)("%s %s", async (method, path, init) => {
    const ours = await fetch(`${base}${path}`, { method, redirect: "manual", ...init });
    // The whole URL, so a `//` path stays a path (resolved on its own it would name another host).
    const theirs = await emulator.fetch(`${ORIGIN}${path}`, { method, ...init });
    expect(summary(ours)).toEqual(summary(theirs));
  });

  it("GET /join: the same page, with the referring site in its form", async () => {
    const init = { headers: { Referer: "https://news.example.com/issues/42" } };
    const ours = await (await fetch(`${base}/join`, init)).text();
    const theirs = await (await emulator.fetch(`${ORIGIN}/join`, init)).text();
    expect(ours).toContain('id="join-referrer" value="https://news.example.com"');
    expect(ours).toBe(theirs);
  });
});
