/**
 * Nobody can guess at a bearer token (issue 31, item 6): failed attempts are limited per network and in total,
 * 429 with Retry-After past either, and a guess past the limit is never evaluated (the right token waits too). On
 * every backend through the product's redemption; the export, which shares the guard, on the embedded database.
 * The clock (Date only) is set to the start of a window, so Retry-After is exact; each test has a window of its own.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import exportHandler from "../../../netlify/functions/waitlist-export";
import { readConfig, resetConfig } from "../../../src/server/config";
import { createRedeemHandler } from "../../../src/server/invitations/redeem-handler";
import { backends, useBackend } from "../../support/backends";
import { fakeContext, releaseEmbeddedStore, useEmbeddedStore } from "../../support/helpers";

const TOKEN = "redeem-token-0123456789abcdef0123456789";
const WRONG = "redeem-token-0123456789abcdef012345678X";
/** Shaped like a code, issued to nobody: a request the guard lets through answers 404. */
const CODE = "A".repeat(27);

/** The start of a ten-minute window, `hours` after 2030-01-01: a window no other test has counted in. */
const windowStart = (hours: number) => new Date(Date.UTC(2030, 0, 1, hours));

/** How many answers had each status, e.g. `{ 401: 10, 429: 10 }`. */
const tally = (responses: Response[]) => {
  const counts: Record<number, number> = {};
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
};

// Each wrong token logs a warning by design; the tests read answers, not those lines.
beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.mocked(console.warn).mockRestore();
});

describe.each(backends("bearer"))("on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  const config = readConfig({ INVITE_REDEEM_TOKEN: TOKEN });
  const handler = createRedeemHandler({ store: async () => backend.store, config: () => config });
  /** A redemption from network `ip` with `token`. */
  const redeem = (token: string, ip = "198.51.100.1") =>
    handler(
      new Request("http://localhost/api/invites/redeem", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ code: CODE }),
      }),
      fakeContext(ip),
    );
  /** `count` redemptions with `token` from `ip`, all in flight at once. */
  const burst = (count: number, token: string, ip?: string) =>
    Promise.all(Array.from({ length: count }, () => redeem(token, ip)));

  it.runIf(available)("thirty wrong tokens from one network, twenty at a time: ten 401s, then 429s", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: windowStart(1) });
    const first = await burst(20, WRONG);
    // Of twenty guesses in flight at once, the allowance is answered: the rest wait, whatever they guessed.
    expect(tally(first)).toEqual({ 401: 10, 429: 10 });
    expect(tally(await burst(10, WRONG))).toEqual({ 429: 10 });
    // The right token from that network is not even compared.
    const right = await redeem(TOKEN);
    expect(right.status).toBe(429);
    expect(await right.json()).toEqual({
      error: "Too many wrong tokens have been tried: try again after Retry-After seconds.",
    });
    for (const res of [...first, right]) {
      if (res.status === 429) expect(res.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      else expect(res.headers.get("www-authenticate")).toBe('Bearer realm="invites"');
    }
    // Another network still has its own allowance, and the right token works there.
    expect((await redeem(WRONG, "198.51.100.2")).status).toBe(401);
    expect((await redeem(TOKEN, "198.51.100.2")).status).toBe(404);
  });

  it.runIf(available)("Retry-After is when the next guess is heard", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: windowStart(2) });
    for (let i = 0; i < 10; i++) expect((await redeem(WRONG)).status).toBe(401);
    const blocked = await redeem(WRONG);
    expect(blocked.status).toBe(429);
    // Ten failures, weighted as the window slides: 10 × (1 − 60/600) + 1 ≤ 10 only 660 s from now.
    expect(blocked.headers.get("retry-after")).toBe("660");
    vi.setSystemTime(windowStart(2).getTime() + 659_000);
    expect((await redeem(WRONG)).status).toBe(429);
    vi.setSystemTime(windowStart(2).getTime() + 660_000);
    expect((await redeem(WRONG)).status).toBe(401);
  });

  it.runIf(available)("a hundred failures from all networks together: then everyone waits", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: windowStart(3) });
    // One network past its own allowance adds only that allowance to the total.
    expect(tally(await burst(15, WRONG, "192.0.2.0"))).toEqual({ 401: 10, 429: 5 });
    for (let network = 1; network < 10; network++) {
      expect(tally(await burst(10, WRONG, `192.0.2.${network}`)), `network ${network}`).toEqual({ 401: 10 });
    }
    // The hundredth failure was the last: a new network waits, with the right token too.
    const wrong = await redeem(WRONG, "192.0.2.10");
    expect(wrong.status).toBe(429);
    expect(wrong.headers.get("retry-after")).toBe("606");
    expect((await redeem(TOKEN, "192.0.2.10")).status).toBe(429);
    // The other endpoint's token is guessed at separately: its own counters are untouched.
    const [row] = await backend.store.db.query<{ attempts: number }>(
      "SELECT sum(attempts)::int AS attempts FROM waitlist_rate_limit WHERE client_key LIKE 'bearer:waitlist:%'",
    );
    expect(row?.attempts ?? null).toBe(null);
  });

  it.runIf(available)("the right token counts nothing, however often", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: windowStart(4) });
    expect(tally(await burst(40, TOKEN))).toEqual({ 404: 40 });
    expect(tally(await burst(10, WRONG))).toEqual({ 401: 10 });
    expect((await redeem(WRONG)).status).toBe(429);
  });
});

describe("the export shares the guard", () => {
  const ADMIN = "export-token-0123456789abcdef0123456789";
  const exportFrom = (ip: string, token: string) =>
    exportHandler(
      new Request("http://localhost/api/waitlist/export", { headers: { Authorization: `Bearer ${token}` } }),
      fakeContext(ip),
    );
  beforeAll(async () => {
    vi.stubEnv("WAITLIST_ADMIN_TOKEN", ADMIN);
    await useEmbeddedStore("bearer-export-", 10);
  }, 60_000);
  afterAll(releaseEmbeddedStore);

  it("ten wrong tokens from one network, then 429 for it, right token or not", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: windowStart(5) });
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await exportFrom("203.0.113.9", `${ADMIN}x`));
    expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expect(answers[0]?.headers.get("www-authenticate")).toBe('Bearer realm="waitlist"');
    expect(answers[10]?.headers.get("retry-after")).toBe("660");
    expect((await exportFrom("203.0.113.9", ADMIN)).status).toBe(429);
    expect((await exportFrom("203.0.113.10", ADMIN)).status).toBe(200);
  });
});

describe("a token shorter than 32 characters", () => {
  afterEach(resetConfig);

  it("turns the export off: 503 and one log line naming the variable", async () => {
    vi.stubEnv("WAITLIST_ADMIN_TOKEN", "letmein");
    resetConfig();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await exportHandler(
        new Request("http://localhost/api/waitlist/export", { headers: { Authorization: "Bearer letmein" } }),
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "This endpoint is not set up correctly: the server's log says why." });
      expect(errors).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(errors.mock.calls[0]?.[0]))).toMatchObject({
        level: "error",
        event: "waitlist.export_refused",
        reason: "WAITLIST_ADMIN_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.",
      });
    } finally {
      errors.mockRestore();
    }
  });

  it("turns the redemption off the same way", async () => {
    const handler = createRedeemHandler({
      store: () => Promise.reject(new Error("no database is needed to refuse")),
      config: () => readConfig({ INVITE_REDEEM_TOKEN: "0123456789abcdef0123456789abcde" }),
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await handler(
        new Request("http://localhost/api/invites/redeem", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: "Bearer 0123456789abcdef0123456789abcde" },
          body: JSON.stringify({ code: CODE }),
        }),
      );
      expect(res.status).toBe(503);
      expect(errors).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(errors.mock.calls[0]?.[0]))).toMatchObject({
        event: "invites.redeem_refused",
        reason: "INVITE_REDEEM_TOKEN is shorter than 32 characters: make one with `openssl rand -hex 32`.",
      });
    } finally {
      errors.mockRestore();
    }
  });
});
