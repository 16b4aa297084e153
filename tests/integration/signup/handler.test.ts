/**
 * The waitlist pipeline called as the platform calls it (a Request, a context), built with createWaitlistHandler
 * on this test's own store and configuration: no environment or global driver setting is touched.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { attributionOf } from "../../../src/lib/waitlist/attribution";
import { REFERRER_FIELD } from "../../../src/lib/waitlist/capture";
import { createStore, type Store } from "../../../src/server/app/store";
import { readConfig } from "../../../src/server/config";
import { createPgDb } from "../../../src/server/db/pg";
import { openPgliteDb } from "../../../src/server/db/pglite";
import { createWaitlistHandler } from "../../../src/server/signup/handler";
import { findEntry } from "../../support/find-entry";
import { fakeContext, migratedDataDir, post } from "../../support/helpers";

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

describe("where a sign-up came from, by one rule on every path", () => {
  const LANDING = "http://localhost/product?utm_source=newsletter&utm_medium=email&utm_campaign=launch";
  const FROM = "https://news.example.com/issues/42?private=yes";
  /** A form post from the page at `referer`, with `fields` beside the sign-up's own. */
  const form = (email: string, fields: Record<string, string>, referer = LANDING) =>
    new Request("http://localhost/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: referer },
      body: new URLSearchParams({ email, termsAccepted: "on", ...fields }).toString(),
    });
  const stored = async (email: string) =>
    (
      await store.db.query("SELECT source, medium, campaign, referrer, page FROM waitlist WHERE email = $1", [email])
    )[0];
  const VISIT = { source: "newsletter", medium: "email", campaign: "launch", page: "/product" };

  it("the island's result, a form with the referring origin, and a form without JavaScript", async () => {
    // The island: the rule applied in the browser, its result sent (src/lib/waitlist/client.ts).
    const island = post({ ...valid, email: "island@example.com", attribution: attributionOf(LANDING, FROM) });
    expect((await call(island)).status).toBe(201);
    // The early dialog, /join with JavaScript: the referring origin, as capture.ts puts it in the form.
    const early = form("early@example.com", { [REFERRER_FIELD]: "https://news.example.com" });
    expect((await call(early)).status).toBe(303);
    // Without JavaScript the field goes empty: only the page, from the Referer.
    expect((await call(form("nojs@example.com", { [REFERRER_FIELD]: "" }))).status).toBe(303);

    expect(await stored("island@example.com")).toEqual({ ...VISIT, referrer: "news.example.com" });
    expect(await stored("early@example.com")).toEqual({ ...VISIT, referrer: "news.example.com" });
    expect(await stored("nojs@example.com")).toEqual({ ...VISIT, referrer: null });
  });

  it("a whole referring address keeps only its host; this site, an app or another site's page keep none", async () => {
    expect((await call(form("full-url@example.com", { [REFERRER_FIELD]: FROM }))).status).toBe(303);
    expect(await stored("full-url@example.com")).toEqual({ ...VISIT, referrer: "news.example.com" });
    expect((await call(form("own@example.com", { [REFERRER_FIELD]: "http://localhost" }))).status).toBe(303);
    expect(await stored("own@example.com")).toEqual({ ...VISIT, referrer: null });
    expect((await call(form("app@example.com", { [REFERRER_FIELD]: "null" }))).status).toBe(303);
    expect(await stored("app@example.com")).toEqual({ ...VISIT, referrer: null });
    // With no Referer the page is unknown, and an origin alone is no attribution: nothing is kept.
    const unknown = form("no-referer@example.com", { [REFERRER_FIELD]: "https://news.example.com" });
    unknown.headers.delete("referer");
    expect((await call(unknown)).status).toBe(303);
    expect(await stored("no-referer@example.com")).toEqual({
      source: null,
      medium: null,
      campaign: null,
      referrer: null,
      page: null,
    });
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
