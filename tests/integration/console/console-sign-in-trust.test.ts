/**
 * The console's sign-in under an adversary's eye (issue 31, items 7, 9, 10, 11), on every backend with a real SMTP
 * server: a new WAITLIST_ADMIN_TOKEN ends the old token's sessions; an admin's inbox gets at most five sign-in
 * links an hour, answered exactly as for any other address; sessions, links and logs hold keyed hashes, never an
 * admin's address; a locked table is the console's own 503 page.
 */
import { createHash } from "node:crypto";
import type { Context } from "@netlify/functions";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import type { Store } from "../../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../../src/server/config";
import { createConsoleHandler, SIGN_IN_MAILS_PER_HOUR } from "../../../src/server/console/handler";
import { CONSOLE_HEADERS } from "../../../src/server/console/pages";
import { backends, type OpenedStore } from "../../support/backends";
import { startSmtp, type TestSmtp } from "../../support/smtp";

const ORIGIN = "http://localhost:4321";
const ADMIN = "ops@noosphere.test";
const TOKEN_A = "console-token-a-0123456789abcdef0123456789";
const TOKEN_B = "console-token-b-0123456789abcdef0123456789";
const DATA_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

describe.each(backends("console_trust"))("%s", (name, available, open) => {
  let opened: OpenedStore;
  let store: Store;
  let smtp: TestSmtp;
  let config: ServerConfig;
  const pending = new Set<Promise<unknown>>();
  const handler = createConsoleHandler({ store: async () => store, config: () => config });

  async function call(path: string, init: RequestInit & { cookie?: string } = {}, ip = "198.51.100.20") {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set("Cookie", init.cookie);
    const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
    const response = await handler(request, createContext(request, ip, pending) as Context);
    while (pending.size) await Promise.all(pending);
    return response;
  }
  const form = (path: string, fields: Record<string, string>, cookie?: string) =>
    call(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: new URLSearchParams(fields).toString(),
      ...(cookie ? { cookie } : {}),
    });
  const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0] ?? "";

  beforeAll(async () => {
    if (!available) return;
    opened = await open();
    store = opened.store;
    smtp = await startSmtp();
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await smtp?.close();
  });

  it.skipIf(!available)("a new admin token ends every session the old one opened", async () => {
    config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN_A, RATE_LIMIT_MAX: "1000" });
    const cookie = cookieOf(await form("/admin/sign-in", { token: TOKEN_A }));
    expect(await (await call("/admin", { cookie })).text()).toContain("Signed in as the admin token");
    config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN_B, RATE_LIMIT_MAX: "1000" });
    const after = await (await call("/admin", { cookie })).text();
    expect(after).toContain('name="token"');
    expect(after).not.toContain("Signed in");
  });

  it.skipIf(!available)(
    "twelve sign-in requests for one admin send five e-mails, answered like any address",
    async () => {
      config = readConfig({
        SMTP_URL: smtp.url,
        MAIL_FROM: "Noosphere <hello@noosphere.test>",
        ADMIN_EMAILS: ADMIN,
        RATE_LIMIT_MAX: "1000",
        DATA_KEY,
      });
      expect(SIGN_IN_MAILS_PER_HOUR).toBe(5);
      const before = smtp.messages.length;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => form("/admin/sign-in", { email: i % 2 ? ADMIN : ADMIN.toUpperCase() })),
      );
      const stranger = await form("/admin/sign-in", { email: "stranger@example.com" });
      for (const res of [...answers, stranger]) {
        expect([res.status, res.headers.get("location"), res.headers.get("set-cookie")]).toEqual([
          303,
          "/admin?sent=1",
          null,
        ]);
      }
      expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([ADMIN, ADMIN, ADMIN, ADMIN, ADMIN]);
    },
  );

  it.skipIf(!available)("sessions, links and logs name an admin by a keyed hash, never the address", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const [mail] = smtp.messages.filter((m) => m.to === ADMIN).slice(-1);
      const link = new URL(mail?.links[0] ?? "");
      const signedIn = await form(link.pathname + link.search, {});
      expect(signedIn.status).toBe(303);
      const home = await (await call("/admin", { cookie: cookieOf(signedIn) })).text();
      expect(home).toContain(`Signed in as <span class="ident" title="${ADMIN}">${ADMIN}</span>`);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines.some((l) => l.includes('"admin.sign_in"'))).toBe(true);
      for (const line of lines) expect(line.toLowerCase()).not.toContain("ops@");
      // Not the unsalted SHA-256 of the address that logs carried before (anyone could compute it).
      const unsalted = createHash("sha256").update(ADMIN).digest("hex").slice(0, 16);
      for (const line of lines) expect(line).not.toContain(unsalted);
    } finally {
      logged.mockRestore();
    }
    const stored = await store.db.query<{ admin: string }>(
      "SELECT admin FROM admin_session UNION ALL SELECT admin FROM admin_sign_in",
    );
    expect(stored.length).toBeGreaterThan(5);
    for (const { admin } of stored) expect(admin).toMatch(/^(admin|token):[0-9a-f]{64}$/);
    expect(stored.filter(({ admin }) => admin.startsWith("admin:")).length).toBe(6);
  });

  it.skipIf(!available || name === "embedded PGlite")(
    "a locked table is the console's own 503 page, with its headers",
    async () => {
      config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN_A, RATE_LIMIT_MAX: "1000", DB_TIMEOUT_MS: "300" });
      const cookie = cookieOf(await form("/admin/sign-in", { token: TOKEN_A }));
      const [named] = await store.db.query<{ name: string }>("SELECT current_database() AS name");
      const locker = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:5432/${named?.name}` });
      await locker.connect();
      locker.on("error", () => {});
      try {
        await locker.query("BEGIN");
        await locker.query("LOCK TABLE waitlist IN ACCESS EXCLUSIVE MODE");
        const error = vi.spyOn(console, "error").mockImplementation(() => {});
        const res = await call("/admin", { cookie });
        error.mockRestore();
        expect(res.status).toBe(503);
        expect(res.headers.get("content-security-policy")).toBe(CONSOLE_HEADERS["Content-Security-Policy"]);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.text()).toContain("The waitlist is unavailable right now. Please try again.");
      } finally {
        await locker.query("ROLLBACK");
        await locker.end();
      }
    },
  );
});

describe("a console whose admin token is too short", () => {
  it("answers 503 saying how to make one, and signs nobody in", async () => {
    const config = readConfig({ WAITLIST_ADMIN_TOKEN: "letmein" });
    const handler = createConsoleHandler({ store: () => Promise.reject(new Error("unused")), config: () => config });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const request = new Request(`${ORIGIN}/admin`);
    const res = await handler(request, createContext(request, "198.51.100.1", new Set()) as Context);
    error.mockRestore();
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(
      "WAITLIST_ADMIN_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.",
    );
  });
});
