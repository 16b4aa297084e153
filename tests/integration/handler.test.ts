/**
 * The waitlist pipeline called as the platform calls it (a Request, a context), built with createWaitlistHandler
 * on this test's own store and configuration: no environment or global driver setting is touched.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../src/server/config";
import { createPgDb } from "../../src/server/db/pg";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createStore, type Store } from "../../src/server/store";
import { createWaitlistHandler } from "../../src/server/waitlist-handler";
import { findEntry } from "./find-entry";
import { fakeContext, migratedDataDir, post } from "./helpers";

const config = readConfig({ RATE_LIMIT_MAX: "100000" }); // many posts from one address
let store: Store;
const getStore = async () => store;
const handler = createWaitlistHandler({ store: getStore, config: () => config });
const call = (request: Request) => handler(request, fakeContext());
const valid = { email: "grace@example.com", termsAccepted: true };

beforeAll(async () => {
  store = createStore(await openPgliteDb(migratedDataDir("handler-")));
}, 60_000);
afterAll(() => store?.close());

describe("POST /api/waitlist on the embedded database", () => {
  it("201: stores a valid sign-up with its combined message", async () => {
    const res = await call(
      post({ ...valid, name: "  Grace ", email: " Grace@Example.com ", organization: "Navy", connect: "Talks" }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ ok: true });
    const store = await getStore();
    expect(await findEntry(store, "grace@example.com")).toEqual({
      name: "Grace",
      email: "Grace@Example.com",
      message: "Organization: Navy\n\nConnect: Talks",
    });
  });

  it("201, identical: a repeated address in another case stores nothing new", async () => {
    const store = await getStore();
    const before = await store.count();
    const first = await call(post({ ...valid, email: "hopper@example.com" }));
    const again = await call(post({ ...valid, email: "  HOPPER@example.COM", name: "Someone else" }));
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(await first.text());
    expect(await store.count()).toBe(before + 1);
    expect((await findEntry(store, "hopper@example.com"))?.name).toBeNull();
  });

  it("405 with Allow for any other method", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await call(new Request("http://localhost/api/waitlist", { method }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toHaveProperty("error");
    }
  });

  it("415 for a missing or non-JSON content type", async () => {
    // application/x-www-form-urlencoded is accepted since the /join form (see operators.test.ts).
    for (const type of [undefined, "text/plain", "multipart/form-data; boundary=x", "application/jsonp"]) {
      const request = new Request("http://localhost/api/waitlist", {
        method: "POST",
        body: JSON.stringify(valid),
        headers: type ? { "Content-Type": type } : {},
      });
      if (!type) request.headers.delete("content-type");
      const res = await call(request);
      expect(res.status, String(type)).toBe(415);
    }
    expect((await call(post(valid, { "Content-Type": "application/json; charset=utf-8" }))).status).toBe(201);
  });

  it("413 for a body over 16 KiB", async () => {
    const res = await call(post({ ...valid, why: "x".repeat(17 * 1024) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body is too large." });
  });

  it("400 for malformed JSON and for JSON that is not an object", async () => {
    for (const body of ["{", "", "null", "[]", '"text"', "42"]) {
      const res = await call(post(body));
      expect(res.status, body).toBe(400);
      expect(await res.json()).toHaveProperty("error");
    }
  });

  it("400 with docs/brief.md's first message for invalid sign-ups, storing nothing", async () => {
    const store = await getStore();
    const before = await store.count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ termsAccepted: true }, "Please provide your email address."],
      [{ email: "x@example.com" }, "Please accept the Terms of Service to continue."],
      [{ email: "x@example.com", termsAccepted: "true" }, "Please accept the Terms of Service to continue."],
      [{ email: "nope", termsAccepted: true }, "Invalid email address"],
      [{ ...valid, name: "n".repeat(101) }, "Name must be less than 100 characters"],
      [{ ...valid, organization: "o".repeat(201) }, "Organization must be less than 200 characters"],
      [{ ...valid, why: "w".repeat(1001) }, "Response must be less than 1000 characters"],
      [{ ...valid, connect: "c".repeat(1001) }, "Response must be less than 1000 characters"],
    ];
    for (const [body, error] of cases) {
      const res = await call(post(body));
      expect(res.status, error).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    expect(await store.count()).toBe(before);
  });
});

describe("POST /api/waitlist when the database fails", () => {
  // The real node-postgres driver, pointed at loopback port 1, where nothing listens.
  const unreachable = createPgDb("postgresql://user:secret@127.0.0.1:1/waitlist", 2000);
  const failing = createWaitlistHandler({ store: async () => createStore(unreachable), config: () => config });

  it("503 with a JSON error and a log line without personal data", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await failing(
        post({ ...valid, email: "private.person@example.com", name: "Private Person" }),
        fakeContext(),
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "The waitlist is unavailable right now. Please try again." });
      expect(error).toHaveBeenCalledTimes(1);
      const line = String(error.mock.calls[0]?.[0]);
      expect(JSON.parse(line)).toMatchObject({ level: "error", event: "waitlist.store_failed", code: "ECONNREFUSED" });
      expect(line).not.toMatch(/private|secret|example\.com/i);
    } finally {
      error.mockRestore();
    }
  });
});
