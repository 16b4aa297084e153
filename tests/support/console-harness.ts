/**
 * The console's tests' shared ground (console.test.ts, console-waves.test.ts): an embedded Postgres, a real SMTP
 * server on 127.0.0.1, the console's handler, and requests to it as a browser sends them. Each file calls
 * openConsoleHarness() at its top, which registers the hooks that open and close them in that file: an import alone
 * would not (with `isolate: false` a worker imports this module once for every file it runs). `h` holds what a test
 * may replace (the config, the store, the handler).
 */
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { JOBS } from "../../src/server/app/jobs";
import { createStore, type Store } from "../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createConsoleHandler } from "../../src/server/console/handler";
import type { RootKey } from "../../src/server/crypto/secret";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createBackgroundHandler, type JobStarter, jobStartRequest } from "../../src/server/jobs";
import { migratedDataDir } from "./helpers";
import { startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";
export const ADMIN = "ops@noosphere.test";
export const TOKEN = "console-token-0123456789abcdef0123456789";

export const pending = new Set<Promise<unknown>>();
export const h = {
  store: undefined as unknown as Store,
  smtp: undefined as unknown as TestSmtp,
  config: undefined as unknown as ServerConfig,
  /** The handler requests go to: the process's own, or one with small download parts and wave slices. */
  active: undefined as unknown as ReturnType<typeof createConsoleHandler>,
};
/**
 * Starts a job as the platform would run the background function: a signed request to its real handler, the
 * work detached (tracked in `pending`, so `call` returns once it has ended, and a test reads the end state).
 */
export function inProcessStarter(origin: string, root: RootKey): JobStarter {
  return async (kind, id) => {
    const request = jobStartRequest(origin, root, kind, id);
    const run = background(request, createContext(request, "127.0.0.1", pending) as Context);
    const tracked: Promise<unknown> = run.catch(() => {}).finally(() => pending.delete(tracked));
    pending.add(tracked);
    return true;
  };
}
export const background = createBackgroundHandler({
  store: async () => h.store,
  config: () => h.config,
  start: inProcessStarter,
  jobs: JOBS,
});
export const handler = createConsoleHandler({
  store: async () => h.store,
  config: () => h.config,
  startJob: inProcessStarter,
});
h.active = handler;

export async function call(path: string, init: RequestInit & { cookie?: string } = {}, ip = "198.51.100.20") {
  const response = await peek(path, init, ip);
  while (pending.size) await Promise.all(pending);
  return response;
}

/** A request answered without waiting for the work it leaves (a background run): to look at a job while it runs. */
export async function peek(path: string, init: RequestInit & { cookie?: string } = {}, ip = "198.51.100.20") {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
  return h.active(request, createContext(request, ip, pending) as Context);
}

/** A form's POST, answered without waiting for the work it leaves. */
export const peekForm = (path: string, fields: Record<string, string>, cookie: string) =>
  peek(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams(fields).toString(),
    cookie,
  });

export const form = (
  path: string,
  fields: Record<string, string>,
  extra: { cookie?: string; origin?: string | null } = {},
) =>
  call(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(extra.origin === null ? {} : { Origin: extra.origin ?? ORIGIN }),
    },
    body: new URLSearchParams(fields).toString(),
    ...(extra.cookie ? { cookie: extra.cookie } : {}),
  });

/** The `name=value` part of a Set-Cookie, as a browser would send it back. */
export const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0] ?? "";

export async function signInByLink(): Promise<string> {
  // The admin's own messages: invitations go through the same server.
  const before = h.smtp.messages.filter((m) => m.to === ADMIN).length;
  const asked = await form("/admin/sign-in", { email: ADMIN.toUpperCase() });
  expect(asked.status).toBe(303);
  const [mail] = (await h.smtp.waitFor(ADMIN, before + 1)).slice(-1);
  const link = mail?.links.find((l) => l.includes("/admin/sign-in/confirm")) ?? "";
  const page = await call(new URL(link).pathname + new URL(link).search);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<button type="submit">Sign in</button>');
  const signedIn = await form(new URL(link).pathname + new URL(link).search, {});
  expect(signedIn.status).toBe(303);
  return cookieOf(signedIn);
}

/** Opens the store and the SMTP server for the calling file, and gives each test a fresh config. */
export function openConsoleHarness(): void {
  beforeAll(async () => {
    h.store = createStore(await openPgliteDb(migratedDataDir("console-")));
    h.smtp = await startSmtp();
  }, 60_000);
  afterAll(async () => {
    await h.store?.close();
    await h.smtp?.close();
  });
  beforeEach(async () => {
    // Each test starts with an admin's hourly allowance of sign-in e-mails unspent (the file signs in many times).
    await h.store.db.query("DELETE FROM waitlist_rate_limit");
    h.config = readConfig({
      SMTP_URL: h.smtp.url,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      ADMIN_EMAILS: ` other@noosphere.test , ${ADMIN} `,
      EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
      RATE_LIMIT_MAX: "1000",
    });
  });
}
