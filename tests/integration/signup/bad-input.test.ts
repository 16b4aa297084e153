import { beforeEach, describe, expect, it } from "vitest";
import { getStore } from "../../../src/server/app/instance";
import { findEntry } from "../../support/find-entry";
import { post } from "../../support/helpers";
import { signupSuite } from "../../support/signup-suite";

const valid = { email: "valid@example.com", termsAccepted: true };
const { call, rowCount } = signupSuite("bad-input-");

describe("bad input: a clear JSON error and nothing stored", () => {
  let before: number;
  beforeEach(async () => {
    before = await rowCount();
  });
  const expectNothingStored = async () => expect(await rowCount()).toBe(before);

  it("reads at most 16 KiB of an oversized body, without a Content-Length", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: endless,
      duplex: "half",
    } as RequestInit);
    const res = await call(request);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(3 * chunk.byteLength);
    await expectNothingStored();
  });

  it("refuses a declared Content-Length over 16 KiB before reading", async () => {
    const res = await call(post("{}", { "Content-Length": String(1024 * 1024) }));
    expect(res.status).toBe(413);
  });

  it("400 for fields of the wrong type", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, email: 42 }, "Invalid email address"],
      [{ ...valid, email: ["a@example.com"] }, "Invalid email address"],
      [{ ...valid, name: 5 }, "Name must be text"],
      [{ ...valid, organization: { x: 1 } }, "Organization must be text"],
      [{ ...valid, why: true }, "Why must be text"],
      [{ ...valid, connect: [] }, "Connect must be text"],
      [{ ...valid, termsAccepted: 1 }, "Please accept the Terms of Service to continue."],
      [{ ...valid, termsAccepted: "yes" }, "Please accept the Terms of Service to continue."],
    ];
    for (const [body, error] of cases) {
      const res = await call(post(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    await expectNothingStored();
  });

  it("400 for empty and whitespace-only emails", async () => {
    for (const email of ["", "   ", "\t\n", null]) {
      const res = await call(post({ ...valid, email }));
      expect(await res.json()).toEqual({ error: "Please provide your email address." });
    }
    await expectNothingStored();
  });

  it("400, not 500, for NUL characters and lone surrogates", async () => {
    const bodies = [
      JSON.stringify({ ...valid, name: "a\u0000b" }),
      JSON.stringify({ ...valid, why: "\u0000" }),
      '{"email":"valid@example.com","termsAccepted":true,"connect":"\\ud800"}',
      '{"email":"valid@example.com","termsAccepted":true,"organization":"x\\udc00y"}',
      '{"email":"a\\u0000@example.com","termsAccepted":true}',
    ];
    for (const body of bodies) {
      const res = await call(post(body));
      expect(res.status, body).toBe(400);
      expect(Object.keys(await res.json())).toEqual(["error"]);
    }
    await expectNothingStored();
  });

  it("400 for bytes that are not UTF-8", async () => {
    const request = new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const res = await call(request);
    expect(res.status).toBe(400);
    await expectNothingStored();
  });
});

describe("valid text is stored exactly", () => {
  it("emoji, right-to-left, zero-width and SQL-looking text", async () => {
    const store = await getStore();
    const name = "Zoë 🧠‍🔬 مرحبا";
    const why = "זה טוב\u200b\u200d\u2060 — Robert'); DROP TABLE waitlist;-- ' OR '1'='1";
    const res = await call(post({ ...valid, email: "exact@example.com", name, why }));
    expect(res.status).toBe(201);
    expect(await findEntry(store, "exact@example.com")).toEqual({
      name,
      email: "exact@example.com",
      message: `Why: ${why}`,
    });
  });

  it("ignores unknown fields and never stores them", async () => {
    const res = await call(
      post({ ...valid, email: "extra@example.com", id: 1, created_at: "1999-01-01", message: "Injected", admin: true }),
    );
    expect(res.status).toBe(201);
    const store = await getStore();
    expect(await findEntry(store, "extra@example.com")).toEqual({
      name: null,
      email: "extra@example.com",
      message: null,
    });
    const [row] = await store.db.query<{ id: number; created_at: Date }>(
      "SELECT id, created_at FROM waitlist WHERE email = 'extra@example.com'",
    );
    expect(row?.id).not.toBe(1);
    expect(new Date(row?.created_at ?? 0).getFullYear()).toBeGreaterThan(2000);
  });
});
