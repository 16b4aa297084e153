/**
 * The operators' console below the browser (src/server/console/handler.ts) on an embedded Postgres, with a real SMTP
 * server on 127.0.0.1: sign-in by link and by token, the session cookie's attributes, every action refused without
 * a live session or from another origin, the headers of every answer, and what it says of data at rest. Downloads
 * and waves: console-waves.test.ts. The overview's own answers: console-overview.test.ts. The whole story in a
 * browser: tests/e2e/console.spec.ts and console-overview.spec.ts.
 */
import type { Context } from "@netlify/functions";
import { describe, expect, it } from "vitest";
import { createContext } from "../../../dev/local-netlify/netlify-context";
import { createStore } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import {
  ADMIN,
  call,
  cookieOf,
  form,
  h,
  handler,
  ORIGIN,
  openConsoleHarness,
  pending,
  signInByLink,
  TOKEN,
} from "../../support/console-harness";

openConsoleHarness();

describe("signing in", () => {
  it("answers a listed and an unlisted address the same; only the listed one gets an e-mail", async () => {
    const before = h.smtp.messages.length;
    const listed = await form("/admin/sign-in", { email: ADMIN });
    const unlisted = await form("/admin/sign-in", { email: "stranger@example.com" });
    for (const res of [listed, unlisted]) {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/admin?sent=1");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(h.smtp.messages.slice(before).map((m) => m.to)).toEqual([ADMIN]);
    const [mail] = h.smtp.messages.slice(before);
    expect(mail?.subject).toBe("Sign in to the Noosphere console");
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost:4321\/admin\/sign-in\/confirm\?token=[A-Za-z0-9_-]{43}$/);
  });

  it("the link's button opens a session: HttpOnly, SameSite=Strict, Path=/admin, 12 hours; the link works once", async () => {
    const before = h.smtp.messages.length;
    await form("/admin/sign-in", { email: ADMIN });
    const [mail] = (await h.smtp.waitFor(ADMIN, before + 1)).slice(-1);
    const link = new URL(mail?.links[0] ?? "");
    // Following the link (a mail scanner) signs nobody in.
    const followed = await call(link.pathname + link.search);
    expect(followed.headers.get("set-cookie")).toBeNull();
    const res = await form(link.pathname + link.search, {});
    expect(res.status).toBe(303);
    const [session, notCounted] = res.headers.getSetCookie();
    expect(session).toMatch(
      /^noosphere_console=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    // Beside it, for the visit function alone: this browser's views of the public pages are not counted (issue 51).
    expect(notCounted).toBe("noosphere_not_counted=1; Path=/api/visit; HttpOnly; SameSite=Strict; Max-Age=31536000");
    const again = await form(link.pathname + link.search, {});
    expect(again.status).toBe(400);
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("marks the cookie Secure when the site is served over https", async () => {
    h.config = { ...h.config, siteUrl: "https://noosphere.test", mail: null, adminToken: TOKEN };
    const res = await form("/admin/sign-in", { token: TOKEN }, { origin: "https://noosphere.test" });
    expect(res.headers.getSetCookie()).toEqual([
      expect.stringMatching(/; Max-Age=43200; Secure$/),
      expect.stringMatching(/^noosphere_not_counted=1; Path=\/api\/visit; .*; Secure$/),
    ]);
  });

  it("with mail off, signs in with WAITLIST_ADMIN_TOKEN; a wrong token gets 401", async () => {
    h.config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN, RATE_LIMIT_MAX: "1000" });
    expect(await (await call("/admin")).text()).toContain('name="token"');
    const wrong = await form("/admin/sign-in", { token: `${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const right = await form("/admin/sign-in", { token: TOKEN });
    expect(right.status).toBe(303);
    const home = await call("/admin", { cookie: cookieOf(right) });
    expect(await home.text()).toContain("Signed in as the admin token");
  });

  it("without mail and admins, or a token, the console says how to turn it on and shows nothing", async () => {
    h.config = readConfig({});
    const res = await call("/admin");
    const html = await res.text();
    expect(html).toContain("The console is off");
    expect(html).toContain("ADMIN_EMAILS");
    expect(html).not.toContain("<form");
    expect((await form("/admin/export", { format: "csv" })).status).toBe(200);
    expect(await (await form("/admin/export", { format: "csv" })).text()).toContain("The console is off");
  });

  it("links and the origin check follow the platform's site URL, never the request's Host", async () => {
    const forged = (origin: string) => {
      const request = new Request("http://evil.example/admin/sign-in", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
        body: `email=${encodeURIComponent(ADMIN)}`,
      });
      // Netlify passes the site's own URL in the context, whatever Host the request names.
      const context = {
        ...createContext(request, "198.51.100.21", pending),
        site: { id: "x", name: "x", url: ORIGIN },
      };
      return handler(request, context as Context);
    };
    expect((await forged("http://evil.example")).status).toBe(403);
    const before = h.smtp.messages.length;
    expect((await forged(ORIGIN)).status).toBe(303);
    while (pending.size) await Promise.all(pending);
    const [mail] = (await h.smtp.waitFor(ADMIN, before + 1)).slice(-1);
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost:4321\/admin\/sign-in\/confirm\?token=/);
  });

  it("is rate limited per network like sign-ups", async () => {
    h.config = { ...h.config, rateLimitMax: 2 };
    const ip = "203.0.113.99";
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const request = new Request(`${ORIGIN}/admin/sign-in`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body: "email=stranger%40example.com",
      });
      answers.push((await handler(request, createContext(request, ip, pending) as Context)).status);
    }
    expect(answers).toEqual([303, 303, 429]);
  });
});

describe("every console action refuses", () => {
  const ACTIONS: Array<[string, Record<string, string>]> = [
    ["/admin/invite", { next: "1", confirm: "yes" }],
    ["/admin/remove", { email: "someone@example.com", confirm: "yes" }],
    ["/admin/export", { format: "csv" }],
  ];

  it("no session, a forged one, an expired one and a signed-out one (401), and the dashboard shows no data", async () => {
    const expired = await signInByLink();
    await h.store.db.query(
      "UPDATE admin_session SET expires_at = now() - interval '1 second' WHERE expires_at > now()",
    );
    const live = await signInByLink();
    const signedOut = await signInByLink();
    const out = await form("/admin/sign-out", {}, { cookie: signedOut });
    expect(out.headers.get("set-cookie")).toBe("noosphere_console=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0");
    const forged = `noosphere_console=${"A".repeat(43)}`;
    expect(live).not.toBe(expired);

    await h.store.db.query("INSERT INTO waitlist (email, status) VALUES ('someone@example.com', 'confirmed')");
    for (const cookie of [undefined, forged, expired, signedOut, "noosphere_console=not-even-the-shape"]) {
      const home = await call("/admin", cookie ? { cookie } : {});
      const html = await home.text();
      expect(html, String(cookie)).toContain("Send me a sign-in link");
      expect(html).not.toContain("someone@example.com");
      for (const [path, fields] of ACTIONS) {
        const res = await form(path, fields, cookie ? { cookie } : {});
        expect(res.status, `${path} ${cookie}`).toBe(401);
      }
    }
    // Nothing was done: the person is still there and nobody was invited.
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 1, invited: 0 });
  });

  it("another origin, a look-alike origin and no origin at all (403), even with a live session", async () => {
    const live = await signInByLink();
    for (const origin of [
      "https://evil.example",
      "http://localhost:4321.evil.example",
      "http://localhost:4322",
      null,
    ]) {
      for (const [path, fields] of ACTIONS) {
        const res = await form(path, fields, { cookie: live, origin });
        expect(res.status, `${path} ${origin}`).toBe(403);
      }
    }
    const crossSite = await call("/admin/export", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, "Sec-Fetch-Site": "cross-site" },
      body: "format=csv",
      cookie: live,
    });
    expect(crossSite.status).toBe(403);
    expect(await h.store.countByStatus()).toMatchObject({ confirmed: 1, invited: 0 });
    // The same session still works from the console's own origin.
    const ok = await form("/admin/export", { format: "json" }, { cookie: live });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/>waitlist-\d{4}-\d{2}-\d{2}-part-001-of-001\.json<\/a>/);
  });

  it("an address taken off ADMIN_EMAILS loses its session at once", async () => {
    const live = await signInByLink();
    h.config = { ...h.config, adminEmails: ["other@noosphere.test"] };
    expect((await form("/admin/export", { format: "csv" }, { cookie: live })).status).toBe(401);
  });
});

describe("every answer", () => {
  it("has the site's headers, a strict CSP without 'unsafe-inline', noindex and no-store", async () => {
    const res = await call("/admin");
    expect(res.headers.get("content-security-policy")).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]{44}'; font-src 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });
});

describe("data at rest", () => {
  const PLAIN_TEXT =
    "Sign-ups are stored as plain text: anyone with a copy of the database (a preview&#x27;s branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";

  it("the dashboard says so while sign-ups are plain text, and not once DATA_KEY seals them all", async () => {
    let cookie = await signInByLink();
    expect(await (await call("/admin", { cookie })).text()).toContain(PLAIN_TEXT);
    const saved = h.store;
    h.config = readConfig({
      SMTP_URL: h.smtp.url,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MAX: "1000",
      DATA_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    });
    h.store = createStore(saved.db, h.config.dataKeys);
    try {
      // Sessions are named under DATA_KEY once it is set (console/sign-in/identity.ts): setting it signs everyone out.
      expect(await (await call("/admin", { cookie })).text()).toContain("Send me a sign-in link");
      cookie = await signInByLink();
      await h.store.add({ name: null, email: "plain@example.com", message: null });
      while ((await h.store.sealNext(500)).read > 0);
      expect(await (await call("/admin", { cookie })).text()).not.toContain("plain text");
      await h.store.db.query(
        "UPDATE waitlist SET key_id = NULL, sealed = NULL, email = 'old@example.com' WHERE id = (SELECT max(id) FROM waitlist)",
      );
      expect(await (await call("/admin", { cookie })).text()).toContain(
        "1 sign-up from before DATA_KEY was set is still plain text: run npm run waitlist -- encrypt.",
      );
      while ((await h.store.sealNext(500)).read > 0);
      expect(await (await call("/admin", { cookie })).text()).not.toContain("plain text");
    } finally {
      h.store = saved;
    }
  });
});
