/**
 * Cookie-free visits (issue 51): a view counts in its day × page × source × medium × campaign × referring host ×
 * share link rollup, a visitor once per rollup and day; bots, HEAD, prefetches, GPC/DNT and the team are left out;
 * values past 100 characters and pages off the list fold into "other"; the day's salt and marks are gone after 48
 * hours; nothing that names a visitor (address, user agent, referring page) is in the database or the log.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/server/config";
import { createVisitStore } from "../../../src/server/visits";
import { createVisitHandler } from "../../../src/server/visits/handler";
import { backends, useBackend } from "../../support/backends";
import { fakeContext } from "../../support/helpers";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const REFERRING_PAGE = "https://news.example.org/item?id=4242-secret-path";

type Row = {
  day: string;
  page: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  by_share_link: boolean;
  views: number;
  visitors: number;
};

describe.each(backends("visits"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const config = readConfig({ RATE_LIMIT_MAX: "1000" });
  let clock = new Date("2026-11-29T10:00:00Z");
  const handler = createVisitHandler({ store: async () => backend.store, config: () => config, now: () => clock });

  afterEach(async () => {
    for (const table of ["visit_rollup", "visit_tally", "visit_seen", "visit_salt"])
      await backend.store.db.query(`DELETE FROM ${table}`);
    clock = new Date("2026-11-29T10:00:00Z");
  });

  const beacon = (
    body: unknown,
    { agent = FIREFOX, ip = "203.0.113.7", headers = {} as Record<string, string>, method = "POST" } = {},
  ) =>
    handler(
      new Request("http://localhost/api/visit", {
        method,
        headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": agent, ...headers },
        ...(method === "POST" ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      }),
      fakeContext(ip),
    );

  const rows = () =>
    backend.store.db.query<Row>(
      `SELECT day::text, page, source, medium, campaign, referrer, by_share_link, views::int, visitors::int
       FROM visit_rollup ORDER BY day, page, source NULLS FIRST, referrer NULLS FIRST`,
    );
  const sum = async () =>
    (await rows()).map((r) => [r.day, r.page, r.source, r.referrer, r.by_share_link, r.views, r.visitors]);

  it.skipIf(!available)(
    "counts views and the day's visitors per page and source, and the site's arrivals",
    async () => {
      // Firefox: the home page from a news site, twice (a reload), then /join from the home page.
      expect((await beacon({ page: "/", query: "", referrer: "https://news.example.org" })).status).toBe(204);
      await beacon({ page: "/", query: "", referrer: "https://news.example.org" });
      await beacon({ page: "/join", query: "", referrer: "http://localhost" });
      // Safari by a newsletter's link, Chrome by a share link (another address and agent each).
      await beacon({ page: "/", query: "?utm_source=newsletter&utm_medium=email", referrer: "" }, { agent: SAFARI });
      await beacon({ page: "/", query: "?via=abcdefghjk", referrer: "" }, { agent: CHROME, ip: "198.51.100.9" });
      // The step to /join counts on its page, not as an arrival at the site ('*').
      expect(await sum()).toEqual([
        ["2026-11-29", "*", null, null, true, 1, 1],
        ["2026-11-29", "*", null, "news.example.org", false, 2, 1],
        ["2026-11-29", "*", "newsletter", null, false, 1, 1],
        ["2026-11-29", "/", null, null, true, 1, 1],
        ["2026-11-29", "/", null, "news.example.org", false, 2, 1],
        ["2026-11-29", "/", "newsletter", null, false, 1, 1],
        ["2026-11-29", "/join", null, null, false, 1, 1],
      ]);
      const [newsletter] = (await rows()).filter((r) => r.source === "newsletter" && r.page === "/");
      expect(newsletter?.medium).toBe("email");
    },
  );

  it.skipIf(!available)(
    "counts a view without JavaScript from its pixel, the page's campaign from the Referer",
    async () => {
      const response = await handler(
        new Request("http://localhost/api/visit?page=%2Fproduct", {
          headers: { "User-Agent": FIREFOX, Referer: "http://localhost/product?utm_source=forum&via=abcdefghjk" },
        }),
        fakeContext(),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/gif");
      expect((await response.arrayBuffer()).byteLength).toBe(42);
      expect(await sum()).toEqual([
        ["2026-11-29", "*", "forum", null, true, 1, 1],
        ["2026-11-29", "/product", "forum", null, true, 1, 1],
      ]);
    },
  );

  it.skipIf(!available)(
    "leaves out bots, HEAD, prefetches, GPC, DNT and the team's browsers, answering alike",
    async () => {
      const view = { page: "/", query: "", referrer: "" };
      const left = [
        await beacon(view, { agent: GOOGLEBOT }),
        await beacon(view, { agent: "" }),
        await beacon(view, { method: "HEAD" }),
        await beacon(view, { headers: { "Sec-Purpose": "prefetch;prerender" } }),
        await beacon(view, { headers: { Purpose: "prefetch" } }),
        await beacon(view, { headers: { "Sec-GPC": "1" } }),
        await beacon(view, { headers: { DNT: "1" } }),
        await beacon(view, { headers: { Cookie: "noosphere_not_counted=1" } }),
      ];
      expect(left.map((r) => r.status)).toEqual([204, 204, 204, 204, 204, 204, 204, 204]);
      expect(await rows()).toEqual([]);
      // The same view from a person, with DNT: 0, is counted.
      await beacon(view, { headers: { DNT: "0", "Sec-GPC": "0" } });
      expect(await sum()).toEqual([
        ["2026-11-29", "*", null, null, false, 1, 1],
        ["2026-11-29", "/", null, null, false, 1, 1],
      ]);
    },
  );

  it.skipIf(!available)("folds values past 100 characters and pages off the list into other", async () => {
    await beacon({ page: "/admin", query: `?utm_source=${"s".repeat(101)}&utm_campaign=${"c".repeat(100)}` });
    await beacon({
      page: "/waitlist/status",
      query: "?utm_source=bad%0Aline",
      referrer: `https://${"h".repeat(101)}.example`,
    });
    const kept = (await rows()).filter((r) => r.page !== "*");
    expect(kept.map((r) => [r.page, r.source, r.campaign, r.referrer])).toEqual([
      ["other", "other", "c".repeat(100), null],
      ["other", "other", null, "other"],
    ]);
  });

  it.skipIf(!available)("refuses bad input clearly and counts nothing", async () => {
    const answers = [
      await beacon("{not json"),
      await beacon("[1]"),
      await beacon({ page: "/" }, { headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      await beacon("x".repeat(5000)),
      await beacon({ page: "/" }, { method: "PUT" }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 400, 415, 413, 405]);
    expect(await answers[0]?.json()).toEqual({ error: "Request body is not valid JSON." });
    expect(await rows()).toEqual([]);
  });

  it.skipIf(!available)(
    "rotates the salt at midnight UTC: the same person is a new visitor, the salt of two days ago is gone",
    async () => {
      const view = { page: "/", query: "", referrer: "" };
      clock = new Date("2026-11-27T23:59:00Z");
      await beacon(view);
      clock = new Date("2026-11-28T00:01:00Z");
      await beacon(view);
      await beacon(view);
      const salts = () => backend.store.db.query<{ day: string }>("SELECT day::text FROM visit_salt ORDER BY day");
      const marks = () =>
        backend.store.db.query<{ day: string; n: number }>(
          "SELECT day::text, count(*)::int AS n FROM visit_seen GROUP BY day ORDER BY day",
        );
      expect(await salts()).toEqual([{ day: "2026-11-27" }, { day: "2026-11-28" }]);
      expect((await rows()).filter((r) => r.page === "/").map((r) => [r.day, r.views, r.visitors])).toEqual([
        ["2026-11-27", 1, 1],
        ["2026-11-28", 2, 1],
      ]);
      // Two days on, the first view of the day deletes the salts and marks of the day before yesterday.
      clock = new Date("2026-11-29T08:00:00Z");
      await beacon(view);
      expect(await salts()).toEqual([{ day: "2026-11-28" }, { day: "2026-11-29" }]);
      expect(await marks()).toEqual([
        { day: "2026-11-28", n: 2 },
        { day: "2026-11-29", n: 2 },
      ]);
      // The daily purge does it too on a day nobody came, and keeps rollups 25 months.
      await backend.store.db.query(
        `INSERT INTO visit_rollup VALUES ('2024-10-31', '/', NULL, NULL, NULL, NULL, false, 5, 3),
        ('2024-11-01', '/', NULL, NULL, NULL, NULL, false, 7, 4)`,
      );
      expect(await createVisitStore(backend.store.db).purge("2026-12-01")).toEqual({
        rollups: 1,
        salts: 2,
        marks: 4,
        tally: 0,
      });
      expect(await salts()).toEqual([]);
      expect((await rows()).map((r) => r.day).filter((d) => d < "2025")).toEqual(["2024-11-01"]);
    },
  );

  it.skipIf(!available)("keeps no address, user agent or referring page in the database or the log", async () => {
    const logged: string[] = [];
    for (const method of ["log", "warn", "error"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => logged.push(args.join(" ")));
    }
    for (const [agent, ip] of [
      [FIREFOX, "203.0.113.7"],
      [SAFARI, "2001:db8::1"],
      [CHROME, "198.51.100.9"],
    ] as const) {
      await beacon({ page: "/", query: "?utm_source=forum", referrer: REFERRING_PAGE }, { agent, ip });
    }
    vi.restoreAllMocks();
    const tables = await backend.store.db.query<{ name: string }>(
      "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    let dump = "";
    for (const { name } of tables) {
      const all = await backend.store.db.query<{ t: string }>(`SELECT t::text AS t FROM ${name} t`);
      dump += all.map((r) => r.t).join("\n");
    }
    expect(dump).toContain("news.example.org");
    for (const secret of [
      FIREFOX,
      SAFARI,
      CHROME,
      "Firefox",
      "203.0.113.7",
      "2001:db8::1",
      "198.51.100.9",
      "4242-secret-path",
    ]) {
      expect(dump).not.toContain(secret);
      expect(logged.join("\n")).not.toContain(secret);
    }
  });
});
