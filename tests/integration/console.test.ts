/**
 * The operators' console below the browser (src/server/console/handler.ts) on an embedded Postgres, with a real SMTP
 * server on 127.0.0.1: sign-in by link and by token, the session cookie's attributes, and every action refused
 * without a live session or from another origin. The whole story in a browser: tests/e2e/console.spec.ts.
 */
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { createConsoleHandler } from "../../src/server/console/handler";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createStore, type Store } from "../../src/server/store/store";
import { migratedDataDir } from "./helpers";
import { startSmtp, type TestSmtp } from "./smtp";

const ORIGIN = "http://localhost:4321";
const ADMIN = "ops@noosphere.test";
const TOKEN = "console-token-0123456789abcdef0123456789";

let store: Store;
let smtp: TestSmtp;
let config: ServerConfig;
const pending = new Set<Promise<unknown>>();
const handler = createConsoleHandler({ store: async () => store, config: () => config });
/** The handler requests go to: the process's own, or one with small download parts and wave slices. */
let active = handler;

async function call(path: string, init: RequestInit & { cookie?: string } = {}, ip = "198.51.100.20") {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
  const response = await active(request, createContext(request, ip, pending) as Context);
  while (pending.size) await Promise.all(pending);
  return response;
}

const form = (path: string, fields: Record<string, string>, extra: { cookie?: string; origin?: string | null } = {}) =>
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
const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0] ?? "";

async function signInByLink(): Promise<string> {
  // The admin's own messages: invitations go through the same server.
  const before = smtp.messages.filter((m) => m.to === ADMIN).length;
  const asked = await form("/admin/sign-in", { email: ADMIN.toUpperCase() });
  expect(asked.status).toBe(303);
  const [mail] = (await smtp.waitFor(ADMIN, before + 1)).slice(-1);
  const link = mail?.links.find((l) => l.includes("/admin/sign-in/confirm")) ?? "";
  const page = await call(new URL(link).pathname + new URL(link).search);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<button type="submit">Sign in</button>');
  const signedIn = await form(new URL(link).pathname + new URL(link).search, {});
  expect(signedIn.status).toBe(303);
  return cookieOf(signedIn);
}

beforeAll(async () => {
  store = createStore(await openPgliteDb(migratedDataDir("console-")));
  smtp = await startSmtp();
}, 60_000);
afterAll(async () => {
  await store?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // Each test starts with an admin's hourly allowance of sign-in e-mails unspent (the file signs in many times).
  await store.db.query("DELETE FROM waitlist_rate_limit");
  config = readConfig({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Noosphere <hello@noosphere.test>",
    ADMIN_EMAILS: ` other@noosphere.test , ${ADMIN} `,
    EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
    RATE_LIMIT_MAX: "1000",
  });
});

describe("signing in", () => {
  it("answers a listed and an unlisted address the same; only the listed one gets an e-mail", async () => {
    const before = smtp.messages.length;
    const listed = await form("/admin/sign-in", { email: ADMIN });
    const unlisted = await form("/admin/sign-in", { email: "stranger@example.com" });
    for (const res of [listed, unlisted]) {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/admin?sent=1");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([ADMIN]);
    const [mail] = smtp.messages.slice(before);
    expect(mail?.subject).toBe("Sign in to the Noosphere console");
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost:4321\/admin\/sign-in\/confirm\?token=[A-Za-z0-9_-]{43}$/);
  });

  it("the link's button opens a session: HttpOnly, SameSite=Strict, Path=/admin, 12 hours; the link works once", async () => {
    const before = smtp.messages.length;
    await form("/admin/sign-in", { email: ADMIN });
    const [mail] = (await smtp.waitFor(ADMIN, before + 1)).slice(-1);
    const link = new URL(mail?.links[0] ?? "");
    // Following the link (a mail scanner) signs nobody in.
    const followed = await call(link.pathname + link.search);
    expect(followed.headers.get("set-cookie")).toBeNull();
    const res = await form(link.pathname + link.search, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(
      /^noosphere_console=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    const again = await form(link.pathname + link.search, {});
    expect(again.status).toBe(400);
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("marks the cookie Secure when the site is served over https", async () => {
    config = { ...config, siteUrl: "https://noosphere.test", mail: null, adminToken: TOKEN };
    const res = await form("/admin/sign-in", { token: TOKEN }, { origin: "https://noosphere.test" });
    expect(res.headers.get("set-cookie")).toMatch(/; Max-Age=43200; Secure$/);
  });

  it("with mail off, signs in with WAITLIST_ADMIN_TOKEN; a wrong token gets 401", async () => {
    config = readConfig({ WAITLIST_ADMIN_TOKEN: TOKEN, RATE_LIMIT_MAX: "1000" });
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
    config = readConfig({});
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
    const before = smtp.messages.length;
    expect((await forged(ORIGIN)).status).toBe(303);
    while (pending.size) await Promise.all(pending);
    const [mail] = (await smtp.waitFor(ADMIN, before + 1)).slice(-1);
    expect(mail?.links[0]).toMatch(/^http:\/\/localhost:4321\/admin\/sign-in\/confirm\?token=/);
  });

  it("is rate limited per network like sign-ups", async () => {
    config = { ...config, rateLimitMax: 2 };
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
    await store.db.query("UPDATE admin_session SET expires_at = now() - interval '1 second' WHERE expires_at > now()");
    const live = await signInByLink();
    const signedOut = await signInByLink();
    const out = await form("/admin/sign-out", {}, { cookie: signedOut });
    expect(out.headers.get("set-cookie")).toBe("noosphere_console=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0");
    const forged = `noosphere_console=${"A".repeat(43)}`;
    expect(live).not.toBe(expired);

    await store.db.query("INSERT INTO waitlist (email, status) VALUES ('someone@example.com', 'confirmed')");
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
    expect(await store.countByStatus()).toMatchObject({ confirmed: 1, invited: 0 });
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
    expect(await store.countByStatus()).toMatchObject({ confirmed: 1, invited: 0 });
    // The same session still works from the console's own origin.
    const ok = await form("/admin/export", { format: "json" }, { cookie: live });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/>waitlist-\d{4}-\d{2}-\d{2}-part-001-of-001\.json<\/a>/);
  });

  it("an address taken off ADMIN_EMAILS loses its session at once", async () => {
    const live = await signInByLink();
    config = { ...config, adminEmails: ["other@noosphere.test"] };
    expect((await form("/admin/export", { format: "csv" }, { cookie: live })).status).toBe(401);
  });
});

describe("every answer", () => {
  it("has the site's headers, a strict CSP without 'unsafe-inline', noindex and no-store", async () => {
    const res = await call("/admin");
    expect(res.headers.get("content-security-policy")).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]{44}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
  });
});

describe("data at rest", () => {
  const PLAIN_TEXT =
    "Sign-ups are stored as plain text: anyone with a copy of the database (a preview&#39;s branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";

  it("the dashboard says so while sign-ups are plain text, and not once DATA_KEY seals them all", async () => {
    let cookie = await signInByLink();
    expect(await (await call("/admin", { cookie })).text()).toContain(PLAIN_TEXT);
    const saved = store;
    config = readConfig({
      SMTP_URL: smtp.url,
      MAIL_FROM: "Noosphere <hello@noosphere.test>",
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MAX: "1000",
      DATA_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    });
    store = createStore(saved.db, config.dataKeys);
    try {
      // Sessions are named under DATA_KEY once it is set (admin/identity.ts): setting it signs everyone out.
      expect(await (await call("/admin", { cookie })).text()).toContain("Send me a sign-in link");
      cookie = await signInByLink();
      await store.add({ name: null, email: "plain@example.com", message: null });
      while ((await store.sealNext(500)).read > 0);
      expect(await (await call("/admin", { cookie })).text()).not.toContain("plain text");
      await store.db.query(
        "UPDATE waitlist SET key_id = NULL, sealed = NULL, email = 'old@example.com' WHERE id = (SELECT max(id) FROM waitlist)",
      );
      expect(await (await call("/admin", { cookie })).text()).toContain(
        "1 sign-up(s) from before DATA_KEY was set are still plain text: run npm run waitlist -- encrypt.",
      );
      while ((await store.sealNext(500)).read > 0);
      expect(await (await call("/admin", { cookie })).text()).not.toContain("plain text");
    } finally {
      store = saved;
    }
  });
});

describe("downloads and waves within Netlify's limits", () => {
  /** The wave's clock: the slow SMTP server below moves it on 100 ms an e-mail; a slice is 250 ms of it. */
  let clock = 0;
  const small = createConsoleHandler({
    store: async () => store,
    config: () => config,
    partSize: { bytes: 1_000_000_000, rows: 4 },
    waveSlice: { ms: 250, now: () => clock },
  });
  beforeAll(() => {
    active = small;
  });
  afterAll(() => {
    active = handler;
  });

  async function seed(n: number, status = "confirmed") {
    await store.db.query("DELETE FROM waitlist");
    await store.db.query("DELETE FROM waitlist_invite_wave");
    await store.db.query(
      `INSERT INTO waitlist (name, email, status, created_at)
       SELECT 'Person ' || g, 'p' || g || '@example.com', $1, timestamptz '2026-01-01' + g * interval '1 minute'
       FROM generate_series(1, $2::int) AS g`,
      [status, n],
    );
  }
  const emails = (text: string) => text.match(/p\d+@example\.com/g) ?? [];
  /** The fields of a preview's confirmation form, as the console's preview page gives them (its one-time ticket). */
  async function confirmation(next: string, cookie: string): Promise<Record<string, string>> {
    const preview = await (await form("/admin/invite", { next }, { cookie })).text();
    const ticket = /name="ticket" value="([\w-]{22})"/.exec(preview)?.[1] ?? "";
    return { next, confirm: "yes", ticket };
  }
  const hashes = async () =>
    (await store.db.query<{ h: string }>("SELECT invite_code_hash AS h FROM waitlist ORDER BY id")).map((r) => r.h);
  const day = new Date().toISOString().slice(0, 10);

  it("the export is a page of parts cut when it is made; each part a whole file, by a signed GET", async () => {
    const cookie = await signInByLink();
    await store.db.query("DELETE FROM waitlist");
    expect(await (await form("/admin/export", { format: "csv" }, { cookie })).text()).toContain(
      "There are no sign-ups yet: nothing to download.",
    );
    await seed(10);
    const page = await form("/admin/export", { format: "csv" }, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("in 3 parts.");
    const links = [...html.matchAll(/<a href="([^"]+)">([^<]+)<\/a> <span class="note">([^<]+)<\/span>/g)];
    expect(links.map(([, , name, rows]) => [name, rows])).toEqual([
      [`waitlist-${day}-part-001-of-003.csv`, "4 sign-ups"],
      [`waitlist-${day}-part-002-of-003.csv`, "4 sign-ups"],
      [`waitlist-${day}-part-003-of-003.csv`, "2 sign-ups"],
    ]);
    const hrefs = links.map(([, href]) => (href ?? "").replaceAll("&amp;", "&"));
    expect(hrefs[0]).toMatch(/^\/admin\/export\/part\?format=csv&from=0&to=\d+&part=1&of=3&sig=[\w-]{22}$/);

    // A sign-up after the page is in no part; each part is a whole file, named by its number.
    await store.db.query("INSERT INTO waitlist (email) VALUES ('p11@example.com')");
    const files: string[] = [];
    for (const [index, href] of hrefs.entries()) {
      const res = await call(href, { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="waitlist-${day}-part-00${index + 1}-of-003.csv"`,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
      files.push(await res.text());
    }
    for (const file of files) expect(file.split("\r\n")[0]).toMatch(/^created_at,name,email,message,status,/);
    expect(files.flatMap(emails)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 1}@example.com`));
    const zipped = await call(hrefs[0] ?? "", { cookie, headers: { "Accept-Encoding": "gzip, deflate" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");

    // Only with the session, and only the ranges the page made.
    expect((await call(hrefs[0] ?? "")).status).toBe(401);
    const href = hrefs[0] ?? "";
    for (const edited of [
      href.replace(/&to=\d+/, "&to=999999"),
      href.replace("&part=1", "&part=4"),
      href.replace("format=csv", "format=json"),
      href.replace(/&sig=[\w-]+/, ""),
      href.replace("from=0", "from=-1"),
    ]) {
      const res = await call(edited, { cookie });
      expect(res.status, edited).toBe(400);
      expect(await res.text()).toContain("This is not a download link the console made.");
    }
  });

  it("a wave that cannot finish in its slice answers how far it got, and Continue goes on to the end", async () => {
    const cookie = await signInByLink();
    await seed(10);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A slow SMTP server: each e-mail takes 100 ms of the wave's clock; the fourth waits for the test.
    const slow = await startSmtp({
      beforeAnswer: async (count) => {
        clock += 100;
        if (count === 4) await held;
      },
    });
    config = { ...config, mail: { smtpUrl: slow.url, from: "Noosphere <hello@noosphere.test>" } };
    try {
      expect(await (await form("/admin/invite", { next: "1001" }, { cookie })).text()).toContain(
        "Choose how many to invite, from 1 to 1000",
      );
      expect((await form("/admin/invite", { wave: "x1", confirm: "yes" }, { cookie })).status).toBe(400);

      const first = await form("/admin/invite", await confirmation("10", cookie), { cookie });
      expect(first.status).toBe(200);
      const page = await first.text();
      expect(page).toContain('<p role="status">Invited 3 so far. 7 still to go.</p>');
      expect(page).toContain('<progress id="wave-progress" max="10" value="3">3 of 10</progress>');
      const wave = /name="wave" value="(\d+)"/.exec(page)?.[1] ?? "";
      expect(await store.countByStatus()).toMatchObject({ confirmed: 7, invited: 3 });

      // Continue, clicked twice: the second click finds the wave taken by the first, and sends nothing.
      const going = form("/admin/invite", { wave }, { cookie });
      await slow.waitFor("p4@example.com");
      const twice = await form("/admin/invite", { wave }, { cookie });
      expect(twice.status).toBe(409);
      expect(await twice.text()).toContain("This wave is not waiting to go on");
      release();
      expect(await (await going).text()).toContain('<p role="status">Invited 6 so far. 4 still to go.</p>');

      const third = await form("/admin/invite", { wave }, { cookie });
      expect(await third.text()).toContain('<p role="status">Invited 9 so far. 1 still to go.</p>');
      const last = await form("/admin/invite", { wave }, { cookie });
      expect(last.status).toBe(303);
      expect(last.headers.get("location")).toBe(`/admin?wave=${wave}`);
      expect(await (await call(last.headers.get("location") ?? "", { cookie })).text()).toContain(
        '<p class="notice" role="status">Invited 10 people.</p>',
      );
      expect(await store.countByStatus()).toMatchObject({ confirmed: 0, invited: 10 });
      expect(slow.messages.map((m) => m.to)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 1}@example.com`));
      // A Continue after the end sends nothing.
      expect((await form("/admin/invite", { wave }, { cookie })).status).toBe(409);
      expect(slow.messages).toHaveLength(10);
    } finally {
      release();
      await slow.close();
    }
  });

  it("notices come from the wave's row: a count in the address, or an unknown wave, shows nothing", async () => {
    const cookie = await signInByLink();
    await seed(2);
    const made = await form("/admin/invite", await confirmation("1", cookie), { cookie });
    const location = made.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\?wave=\d+$/);
    const notice = async (path: string) =>
      /<p class="notice" role="status">([^<]*)<\/p>/.exec(await (await call(path, { cookie })).text())?.[1] ?? null;
    expect(await notice(location)).toBe("Invited 1 person.");
    expect(await notice("/admin?invited=500")).toBeNull();
    expect(await notice("/admin?invited=500&refused=0&stopped=1")).toBeNull();
    expect(await notice("/admin?wave=999999")).toBeNull();
    expect(await notice("/admin?wave=1x")).toBeNull();
    // The form's max and the server's cap are one constant.
    expect(await (await call("/admin", { cookie })).text()).toContain('name="next" type="number" min="1" max="1000"');
    expect((await form("/admin/invite", { next: "1001" }, { cookie })).status).toBe(400);
  });

  it("two confirmations of one preview at once are one wave: two invited, both answers name it", async () => {
    const cookie = await signInByLink();
    await seed(5);
    const fields = await confirmation("2", cookie);
    // The first holds at its first RCPT TO, so the second arrives while the wave is under way.
    const held = smtp.hold("rcpt", "p1@example.com");
    const first = form("/admin/invite", fields, { cookie });
    await held.reached;
    const second = await form("/admin/invite", fields, { cookie });
    held.release();
    const answers = [await first, second];
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const [a, b] = answers.map((answer) => answer.headers.get("location"));
    expect(a).toMatch(/^\/admin\?wave=\d+$/);
    expect(b).toBe(a);
    expect(await store.countByStatus()).toMatchObject({ confirmed: 3, invited: 2 });
    expect(await (await call(a ?? "", { cookie })).text()).toContain("Invited 2 people.");
  });

  it("with mail off, a wave's file lost with the connection is offered again: new codes, the lost ones void", async () => {
    config = readConfig({
      WAITLIST_ADMIN_TOKEN: "t".repeat(40),
      EARLY_ACCESS_URL: "https://app.noosphere.test/signup",
      RATE_LIMIT_MAX: "1000",
    });
    const cookie = cookieOf(await form("/admin/sign-in", { token: "t".repeat(40) }));
    await seed(3);
    const answer = await form("/admin/invite", await confirmation("3", cookie), { cookie });
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // The connection drops: the browser never reads the file.
    await answer.body?.cancel();
    const lost = await hashes();
    expect(await store.countByStatus()).toMatchObject({ invited: 3 });
    const home = await (await call("/admin", { cookie })).text();
    const wave = /name="file" value="(\d+)"/.exec(home)?.[1] ?? "";
    expect(home).toContain(`Wave ${wave}: 3 people invited with mail off.`);
    expect(home).toContain("Download this wave's file again");

    const again = await form("/admin/invite", { file: wave, action: "again" }, { cookie });
    const rows = (await again.text()).split("\r\n");
    expect(rows.map((row) => row.replace(/invite=[\w-]{27}$/, "invite=CODE"))).toEqual([
      "email,name,invite_url",
      "p1@example.com,Person 1,https://app.noosphere.test/signup?invite=CODE",
      "p2@example.com,Person 2,https://app.noosphere.test/signup?invite=CODE",
      "p3@example.com,Person 3,https://app.noosphere.test/signup?invite=CODE",
      "",
    ]);
    const now = await hashes();
    expect(now.filter((hash, i) => hash === lost[i])).toEqual([]);
    expect(await store.countByStatus()).toMatchObject({ invited: 3 });
    // Offered until the admin says the file arrived.
    expect(await (await call("/admin", { cookie })).text()).toContain(`name="file" value="${wave}"`);
    expect((await form("/admin/invite", { file: wave, action: "arrived" }, { cookie })).status).toBe(303);
    expect(await (await call("/admin", { cookie })).text()).not.toContain('name="file"');
  });
});
