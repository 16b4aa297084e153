/**
 * A function's `config.rateLimit` on the local host, as Netlify's edge applies it: per client address, in windows
 * fixed on the clock, a 429 past the limit without the function running. The clock is the test's own.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../dev/local-netlify/rate-limit";
import { createSiteHandler } from "../../dev/local-netlify/site-server";
import { refuseFunctionConfig } from "../../dev/local-netlify/unsupported";

const RULE = { windowLimit: 3, windowSize: 60 };

describe("the limiter", () => {
  it("lets 3 through in a minute per client, then answers 429 until the next minute", async () => {
    let now = Date.UTC(2026, 10, 25, 8, 0, 10);
    const limited = createRateLimiter(() => now);
    const tries = () => [1, 2, 3, 4].map(() => limited("waitlist", RULE, "192.0.2.1", "/api/waitlist")?.status ?? 200);
    expect(tries()).toEqual([200, 200, 200, 429]);
    // Another client, and the same client on another function, have their own count.
    expect(limited("waitlist", RULE, "192.0.2.2", "/api/waitlist")).toBeNull();
    expect(limited("admin", RULE, "192.0.2.1", "/admin")).toBeNull();
    now += 30_000; // 08:00:40, the same window: told to come back in 20 s
    const refused = limited("waitlist", RULE, "192.0.2.1", "/api/waitlist");
    expect([refused?.status, refused?.headers.get("retry-after"), await refused?.text()]).toEqual([
      429,
      "20",
      "Too many requests: at most 3 in 60 s.\n",
    ]);
    now += 20_000; // 08:01:00, a new window
    expect(tries()).toEqual([200, 200, 200, 429]);
  });

  it("keeps a long window's count while a shorter rule's windows come and go", () => {
    let now = Date.UTC(2026, 10, 25, 8, 0, 0);
    const limited = createRateLimiter(() => now);
    const minute = { windowLimit: 2, windowSize: 60 };
    const tenSeconds = { windowLimit: 5, windowSize: 10 };
    expect(limited("slow", minute, "192.0.2.1", "/slow")).toBeNull();
    expect(limited("slow", minute, "192.0.2.1", "/slow")).toBeNull();
    now += 15_000; // a new ten-second window, the same minute
    expect(limited("fast", tenSeconds, "192.0.2.1", "/fast")).toBeNull();
    expect(limited("slow", minute, "192.0.2.1", "/slow")?.status).toBe(429);
  });

  it.each([
    [{ ...RULE, aggregateBy: ["domain"] }],
    [{ ...RULE, aggregateBy: ["ip"], action: "rewrite", to: "/slow-down" }],
    [{ windowLimit: 3, aggregateBy: ["ip"] }],
  ])("refuses a rule it cannot apply as Netlify does: %j", (rateLimit) => {
    expect(() => refuseFunctionConfig("fn", { path: "/x", rateLimit })).toThrow("config.rateLimit");
  });
});

describe("on the host", () => {
  let server: Server;
  let base: string;
  let calls = 0;
  beforeAll(async () => {
    const route = {
      name: "echo",
      rateLimit: { windowLimit: 2, windowSize: 60 },
      handler: async () => {
        calls++;
        return new Response("ok");
      },
    };
    const handler = createSiteHandler({
      publish: "dist-that-does-not-exist",
      headerRules: [],
      functions: [
        { ...route, path: "/a" },
        { ...route, path: "/b" },
      ],
    });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers 429 past the limit, across the function's paths, without running it", async () => {
    const statuses = [];
    for (const path of ["/a", "/b", "/a"]) statuses.push((await fetch(`${base}${path}`)).status);
    expect([statuses, calls]).toEqual([[200, 200, 429], 2]);
  });
});
