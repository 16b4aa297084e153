/**
 * Property-based: at least 10,000 generated payloads (random bytes, random JSON, near-valid sign-ups) against
 * the real handler on a real PGlite. No 5xx, no thrown error, every answer JSON, and rows only for valid
 * sign-ups. Prints its counts.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import handler from "../../netlify/functions/waitlist";
import { HONEYPOT_FIELD, LIMITS } from "../../src/lib/waitlist/rules";
import { loadValidator } from "../../src/lib/waitlist/schema";
import { getStore } from "../../src/server/store-instance";
import { fakeContext, releaseEmbeddedStore, useEmbeddedStore } from "./helpers";

const validateSignup = await loadValidator();

const RUNS = { bytes: 3000, json: 3000, nearValid: 4000 };

beforeAll(() => useEmbeddedStore("fuzz-", 1_000_000), 60_000); // the fuzzer is one client
afterAll(releaseEmbeddedStore);

const text = (max: number) =>
  fc.oneof(
    { arbitrary: fc.string({ maxLength: 40 }), weight: 12 },
    fc.string({ maxLength: max + 3 }),
    fc.string({ unit: "grapheme", maxLength: Math.min(max, 40) }),
    fc.string({
      unit: fc.constantFrom("a", " ", "\u0000", "\ud800", "\udc00", "é", "🧠", "\u200b", "'", ";"),
      maxLength: 12,
    }),
    fc.constant("x".repeat(max)),
    fc.constant("x".repeat(max + 1)),
  );
/** A valid address made distinct by a random tag, so valid sign-ups do not collapse into a few rows. */
const taggedEmail = fc
  .tuple(fc.uuid(), fc.stringMatching(/^[a-z0-9]([a-z0-9._+-]{0,18}[a-z0-9])?@[a-z0-9-]{1,12}\.(com|org|io|co\.uk)$/))
  .map(([tag, address]) => `${tag.slice(0, 8)}.${address}`);
const email = fc.oneof(
  taggedEmail,
  taggedEmail,
  taggedEmail.map((e) => ` ${e.toUpperCase()} `),
  fc.emailAddress(),
  fc.string({ maxLength: 20 }),
  fc.constant(""),
  fc.constant(`${"a".repeat(243)}@example.com`),
);
const nearValid = fc.record(
  {
    name: text(LIMITS.name),
    email,
    organization: text(LIMITS.organization),
    why: text(LIMITS.why),
    connect: text(LIMITS.connect),
    termsAccepted: fc.oneof(
      { arbitrary: fc.constant(true), weight: 8 },
      fc.boolean(),
      fc.constant("true"),
      fc.constant(1),
    ),
    [HONEYPOT_FIELD]: fc.oneof(fc.constant(""), fc.constant(""), fc.constant(""), fc.string({ maxLength: 5 })),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ["email"] },
);

it("survives 10,000 generated payloads", { timeout: 300_000 }, async () => {
  const store = await getStore();
  const before = await store.count();
  const validEmails = new Set<string>();
  const statuses = new Map<number, number>();
  let total = 0;

  const send = async (body: BodyInit, expectValid?: Record<string, unknown>) => {
    total++;
    const response = await handler(
      new Request("http://localhost/api/waitlist", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      }),
      fakeContext("198.51.100.1"),
    );
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("content-type")).toContain("application/json");
    const answer = JSON.parse(await response.text());
    if (expectValid) {
      const verdict = validateSignup(expectValid);
      const honeypot = expectValid[HONEYPOT_FIELD];
      const kept = verdict.ok && (honeypot === undefined || honeypot === "");
      if (kept) validEmails.add(verdict.value.email.toLowerCase());
      expect(response.status).toBe(verdict.ok || (honeypot !== undefined && honeypot !== "") ? 201 : 400);
      if (response.status === 400 && verdict.ok === false) expect(answer).toEqual({ error: verdict.message });
    }
  };

  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), (bytes) => send(bytes)),
    { numRuns: RUNS.bytes },
  );
  await fc.assert(
    fc.asyncProperty(fc.jsonValue(), (value) => send(JSON.stringify(value))),
    { numRuns: RUNS.json },
  );
  await fc.assert(
    fc.asyncProperty(nearValid, (payload) => send(JSON.stringify(payload), payload)),
    { numRuns: RUNS.nearValid },
  );

  const stored = (await store.count()) - before;
  console.log(
    `fuzz: ${total} payloads (${RUNS.bytes} random bytes, ${RUNS.json} random JSON, ${RUNS.nearValid} near-valid); ` +
      `answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
      `${validEmails.size} distinct valid sign-ups, ${stored} rows stored; 5xx: ${[...statuses.keys()].filter((s) => s >= 500).length}`,
  );
  expect(total).toBeGreaterThanOrEqual(10_000);
  expect(stored).toBe(validEmails.size);
  expect(validEmails.size).toBeGreaterThan(300);
});
