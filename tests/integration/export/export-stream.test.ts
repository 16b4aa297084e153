/**
 * Exports stream: batches are read from a keyset cursor only as the client takes them (so memory holds one
 * batch), the first is read before the answer (so a database that does not answer is still a 503), a later
 * failure is an incomplete transfer (never a short file), HEAD reads nothing. Plus the mail tools' CSV, and the
 * consent record and the answers' own columns, end to end through the sign-up function.
 */
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import signupHandler from "../../../netlify/functions/waitlist";
import exportHandler from "../../../netlify/functions/waitlist-export";
import { getStore } from "../../../src/server/app/instance";
import { formatEntries, openExport } from "../../../src/server/export/rows";
import { fakeContext, post, releaseEmbeddedStore, useEmbeddedStore } from "../../support/helpers";

const TOKEN = "export-token-0123456789abcdef0123456789";
const ROWS = 1_200;
const exportRequest = (query = "", method = "GET") =>
  new Request(`http://localhost/api/waitlist/export${query}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}` },
  });

beforeAll(async () => {
  vi.stubEnv("WAITLIST_ADMIN_TOKEN", TOKEN);
  await useEmbeddedStore("export-stream-", 1000);
  const store = await getStore();
  await store.db.query(
    `INSERT INTO waitlist (name, email, created_at)
     SELECT 'Person ' || g, 'p' || g || '@example.com', timestamptz '2026-01-01' + g * interval '1 second'
     FROM generate_series(1, ${ROWS}) AS g`,
  );
  await store.add({ name: "Bob", email: "-bob@example.com", message: null });
}, 60_000);
afterAll(releaseEmbeddedStore);

const listQueries = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([sql]) => String(sql).includes("ORDER BY id LIMIT")).length;

describe("the export streams", () => {
  it("reads the next batch only when the client has taken the last", async () => {
    const store = await getStore();
    const spy = vi.spyOn(store.db, "query");
    try {
      const stream = await openExport(store, "csv", { timeoutMs: 5000, batch: 500 });
      expect(listQueries(spy)).toBe(1);
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value); // the header line
      // The first batch, already read, is all that is read while most of it is being taken (the stream asks for
      // the next only as its last piece goes).
      for (let taken = 0; taken < 480; ) {
        const chunk = decoder.decode((await reader.read()).value);
        taken += chunk.split("\r\n").length - 1;
        text += chunk;
      }
      expect(listQueries(spy)).toBe(1);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        text += decoder.decode(chunk.value);
      // 1,201 rows in batches of 500: three reads, the last one short, so no fourth.
      expect(listQueries(spy)).toBe(3);
      expect(text.split("\r\n").filter(Boolean)).toHaveLength(ROWS + 2);
    } finally {
      spy.mockRestore();
    }
  });

  it("writes, batch by batch, exactly the file written whole", async () => {
    const store = await getStore();
    for (const format of ["csv", "json", "mail-csv"] as const) {
      const streamed = await new Response(await openExport(store, format, { timeoutMs: 5000, batch: 7 })).text();
      expect(streamed).toBe(await formatEntries(await store.list(), format));
    }
    const json = JSON.parse(await new Response(await openExport(store, "json", { timeoutMs: 5000 })).text());
    expect(json).toHaveLength(ROWS + 1);
    expect(json[0]).toMatchObject({ name: "Person 1", email: "p1@example.com", status: "confirmed" });
  });

  it("HEAD answers the headers without reading the list", async () => {
    const store = await getStore();
    const spy = vi.spyOn(store.db, "query");
    try {
      const res = await exportHandler(exportRequest("", "HEAD"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      // Only the token's guard reads (its failed-attempt counters): never the list.
      expect(listQueries(spy)).toBe(0);
      // A cursor the export did not make is refused before anything is read.
      expect((await exportHandler(exportRequest("?after=1-", "HEAD"))).status).toBe(400);
    } finally {
      spy.mockRestore();
    }
  });

  it("a database that does not answer the first batch is a 503; a later failure is an incomplete transfer", async () => {
    const store = await getStore();
    const spy = vi.spyOn(store.db, "query").mockRejectedValueOnce(new Error("connection lost"));
    expect((await exportHandler(exportRequest())).status).toBe(503);
    spy.mockRestore();

    // The second batch's query fails, after the answer has begun.
    const query = store.db.query.bind(store.db);
    const second = vi.spyOn(store.db, "query").mockImplementation((sql, params) => {
      if (String(sql).includes("ORDER BY id LIMIT") && Number((params as unknown[])[0]) > 0) {
        return Promise.reject(new Error("connection lost"));
      }
      return query(sql, params);
    });
    try {
      const res = await exportHandler(exportRequest());
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
    } finally {
      second.mockRestore();
    }
  });

  it("for mail tools: address and name, each exactly as given", async () => {
    const res = await exportHandler(exportRequest("?format=mail-csv"));
    // 1,201 short rows are one part: no next.
    expect(res.headers.get("link")).toBeNull();
    const csv = await res.text();
    expect(csv.startsWith("email,name\r\np1@example.com,Person 1\r\n")).toBe(true);
    expect(csv).toContain("\r\n-bob@example.com,Bob\r\n");
    const guarded = await (await exportHandler(exportRequest())).text();
    expect(guarded).toContain(",'-bob@example.com,");
    expect((await exportHandler(exportRequest("?format=xml"))).status).toBe(400);
  });
});

describe("the consent record and the answers, from the sign-up to the export", () => {
  it("keeps each answer in its own column, with the terms agreed to and when", async () => {
    const context: Context = fakeContext("198.51.100.77");
    const res = await signupHandler(
      post({
        email: "answers@example.com",
        termsAccepted: true,
        organization: "ACME",
        why: "Because\n\nConnect: @forged",
        connect: "@real",
      }),
      context,
    );
    expect(res.status).toBe(201);
    const entry = (await (await getStore()).list()).find((e) => e.email === "answers@example.com");
    expect(entry).toMatchObject({
      message: "Organization: ACME\n\nWhy: Because\n\nConnect: @forged\n\nConnect: @real",
      organization: "ACME",
      why: "Because\n\nConnect: @forged",
      connect: "@real",
      terms_version: "d32ad6715e8da973",
      confirmed_at: null,
    });
  });
});
