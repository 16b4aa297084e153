import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getStore } from "../../../src/server/app/instance";
import { getConfig, resetConfig } from "../../../src/server/config";
import { rootKey } from "../../../src/server/crypto/secret";
import { clientKey } from "../../../src/server/http/rate-limit";
import { findEntry } from "../../support/find-entry";
import { post } from "../../support/helpers";
import { signupSuite } from "../../support/signup-suite";

const valid = { email: "valid@example.com", termsAccepted: true };
const { call, rowCount } = signupSuite("allowance-");

describe("bots", () => {
  it("a filled honeypot answers exactly like a success and stores nothing", async () => {
    const before = await rowCount();
    const honest = await call(post({ ...valid, email: "human@example.com" }));
    const bot = await call(post({ ...valid, email: "bot@example.com", homepage: "http://spam.example" }));
    expect(bot.status).toBe(honest.status);
    expect(await bot.text()).toBe(await honest.text());
    expect(await rowCount()).toBe(before + 1);
    expect(await findEntry(await getStore(), "bot@example.com")).toBeNull();
  });
});

describe("the free allowance in Postgres", () => {
  beforeAll(() => {
    vi.stubEnv("RATE_LIMIT_MAX", "5");
    resetConfig();
  });
  afterAll(() => {
    vi.stubEnv("RATE_LIMIT_MAX", "1000");
    resetConfig();
  });

  it("allows 5 sign-ups per network, then asks the dialog for a proof of work (429, Retry-After)", async () => {
    const ip = "192.0.2.55";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(post({ ...valid, email: `rl${i}@example.com` }), ip)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const limited = await call(post({ ...valid, email: "rl5@example.com" }), ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    // Six attempts against five: accepted a third of the way into the next window, so 200 to 800 s from now.
    expect(retryAfter).toBeGreaterThanOrEqual(200);
    expect(retryAfter).toBeLessThanOrEqual(800);
    const body = await limited.json();
    expect(body.error).toBe("Please confirm you are not a robot.");
    expect(body.challenge.parameters.algorithm).toBe("PBKDF2/SHA-256");
    expect(await findEntry(await getStore(), "rl5@example.com")).toBeNull();
    // Another network is unaffected.
    expect((await call(post({ ...valid, email: "other@example.com" }), "192.0.2.56")).status).toBe(201);
  });

  it("tells /join the real wait: whoever comes back as told is accepted", async () => {
    // On the page's clock: 100 s into a 600 s window. Five sign-ups fill the allowance, the sixth is refused.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-06-01T10:01:40Z"));
      const ip = "192.0.2.77";
      const form = (email: string) =>
        new Request("http://localhost/api/waitlist", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email, termsAccepted: "on" }).toString(),
        });
      for (let i = 0; i < 5; i++) expect((await call(form(`wait${i}@example.com`), ip)).status).toBe(303);
      const refused = await call(form("wait5@example.com"), ip);
      expect(refused.status).toBe(429);
      // 6 attempts this window: the next window accepts once 1 + 6 × weight ≤ 5, a third of the way in, 700 s
      // from now (the end of this window, which the fixed figure said, is 500 s away and would refuse again).
      expect(refused.headers.get("retry-after")).toBe("700");
      expect(await refused.text()).toContain("Please come back in 12 minutes.");
      vi.setSystemTime(new Date("2026-06-01T10:13:20Z"));
      expect((await call(form("wait5@example.com"), ip)).status).toBe(303);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores a keyed hash of the address, never the address", async () => {
    const store = await getStore();
    const rows = await store.db.query<{ client_key: string }>("SELECT client_key FROM waitlist_rate_limit");
    expect(rows.length).toBeGreaterThan(0);
    for (const { client_key } of rows) expect(client_key).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect(rows.map((r) => r.client_key)).toContain(clientKey("192.0.2.55", await rootKey(getConfig(), store)));
  });

  it("prunes windows older than the previous one", async () => {
    const store = await getStore();
    await store.db.query(
      "INSERT INTO waitlist_rate_limit (client_key, window_start) VALUES ('old', now() - interval '2 days')",
    );
    await call(post({ ...valid, email: "prune@example.com" }), "192.0.2.99");
    const old = await store.db.query("SELECT 1 FROM waitlist_rate_limit WHERE client_key = 'old'");
    expect(old).toEqual([]);
  });
});
