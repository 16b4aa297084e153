/**
 * Crowds in, floods out: many people behind one address get in (past a free allowance, with a proof of work
 * their browser solves), typos never count, and a script that floods the API without solving anything gets
 * at most the allowance stored. The full 200-person crowd goes through the real dialog in tests/e2e/crowd.slow.spec.ts;
 * here, over HTTP, a crowd four times the allowance proves the same path in seconds.
 */
import type { Challenge } from "altcha-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import handler from "../../netlify/functions/waitlist";
import { encodeProof } from "../../src/lib/waitlist/client";
import { solveProof } from "../../src/lib/waitlist/proof-solver";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { fakeContext, post, releaseEmbeddedStore, useEmbeddedStore } from "../support/helpers";

const ALLOWANCE = 10; // the default RATE_LIMIT_MAX
const signUp = (email: string, ip: string, extra: Record<string, unknown> = {}) =>
  handler(post({ email, termsAccepted: true, ...extra }), fakeContext(ip));
const stored = async (prefix: string) =>
  (await (await getStore()).list()).filter((entry) => entry.email.startsWith(prefix)).length;

/** What the dialog does (its solver, on Node's Web Crypto): solve the challenge, encode the proof. */
async function prove(challenge: Challenge): Promise<string> {
  const solution = await solveProof(challenge);
  if (!solution) throw new Error("no solution within the solver's timeout");
  return encodeProof(challenge, solution);
}

beforeAll(() => useEmbeddedStore("crowds-", ALLOWANCE), 60_000);
afterAll(releaseEmbeddedStore);

describe("a flood from one address that never solves a challenge", () => {
  it("stores at most the free allowance", async () => {
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => signUp(`flood${i}@example.com`, "203.0.113.66").then((r) => r.status)),
    );
    expect(answers.filter((status) => status === 201)).toHaveLength(ALLOWANCE);
    expect(answers.filter((status) => status === 429)).toHaveLength(120 - ALLOWANCE);
    expect(await stored("flood")).toBe(ALLOWANCE);
    expect(getConfig().rateLimitMax).toBe(ALLOWANCE);
  }, 60_000);

  it("cannot reuse one solved challenge for another address", async () => {
    const ip = "203.0.113.67";
    for (let i = 0; i < ALLOWANCE; i++) await signUp(`reuse${i}@example.com`, ip);
    const limited = await signUp("reuse.a@example.com", ip);
    const proof = await prove((await limited.json()).challenge);
    expect((await signUp("reuse.a@example.com", ip, { altcha: proof })).status).toBe(201);
    const replay = await signUp("reuse.b@example.com", ip, { altcha: proof });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: "The anti-spam check did not pass. Please try again." });
    expect((await signUp("reuse.c@example.com", ip, { altcha: "bm90IGEgcHJvb2Y=" })).status).toBe(400);
    expect(await stored("reuse.")).toBe(1);
  }, 60_000);
});

describe("a crowd behind one address", () => {
  const CROWD = 4 * ALLOWANCE;
  it(`${CROWD} different people all get in: the first on the allowance, the rest with a proof of work`, async () => {
    const ip = "198.51.100.200";
    let proven = 0;
    for (let i = 0; i < CROWD; i++) {
      const email = `crowd${i}@example.com`;
      let res = await signUp(email, ip);
      if (res.status === 429) {
        proven++;
        res = await signUp(email, ip, { altcha: await prove((await res.json()).challenge) });
      }
      expect(res.status).toBe(201);
    }
    expect(proven).toBe(CROWD - ALLOWANCE);
    expect(await stored("crowd")).toBe(CROWD);
  }, 120_000);

  it("typos never count: a person's mistakes do not lock them out", async () => {
    const ip = "198.51.100.201";
    for (let i = 0; i < 40; i++) {
      const res = await signUp(i % 2 ? "not-an-email" : "", ip);
      expect(res.status).toBe(400);
    }
    expect((await signUp("typist@example.com", ip)).status).toBe(201);
  });

  it("the form without JavaScript keeps the allowance and says when to come back", async () => {
    const ip = "198.51.100.202";
    for (let i = 0; i < ALLOWANCE; i++) await signUp(`formcrowd${i}@example.com`, ip);
    const res = await handler(
      new Request("http://localhost/api/waitlist", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=formcrowd.late%40example.com&termsAccepted=on",
      }),
      fakeContext(ip),
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.text()).toMatch(
      /Many people have signed up from your network just now\. Please come back in \d+ minutes?\./,
    );
  });
});

describe("who counts as one client (the table of addresses: tests/unit/client-network.test.ts)", () => {
  it("every address of one IPv6 /64 shares its allowance", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ALLOWANCE + 1; i++) {
      statuses.push((await signUp(`v6.${i}@example.com`, `2001:db8:aa:bb::${(i + 1).toString(16)}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect((await signUp("v6.other@example.com", "2001:db8:aa:cc::1")).status).toBe(201);
  });
});
