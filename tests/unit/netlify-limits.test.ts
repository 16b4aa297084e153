/**
 * The local host refuses what Netlify refuses a function (dev/local-netlify/limits.ts): sizes at their real
 * values, times shortened to 200 ms so that no test waits a minute. Each refusal leaves one log line naming it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SYNCHRONOUS_FUNCTION_TIMEOUT } from "@netlify/functions";
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { limitsWith, NETLIFY_LIMITS, type NetlifyLimits } from "../../dev/local-netlify/limits";
import { createSiteHandler, type FunctionRoute, runScheduled } from "../../dev/local-netlify/site-server";

const MB = 1024 * 1024;
const never = () => new Promise<Response>(() => {});
/** `size` bytes in 64 KiB chunks, from one reused chunk: 20 MB costs no memory. */
const stream = (size: number, end = true) => {
  const chunk = new Uint8Array(64 * 1024).fill(120);
  let left = size;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left === 0) return end ? controller.close() : new Promise(() => {});
      const part = chunk.subarray(0, Math.min(left, chunk.byteLength));
      left -= part.byteLength;
      controller.enqueue(part);
    },
  });
};
const size = (req: Request) => Number(new URL(req.url).searchParams.get("size"));
const calls: string[] = [];
const functions: FunctionRoute[] = [
  {
    path: "/api/upload",
    handler: async (req) => {
      calls.push("upload");
      return Response.json({ received: (await req.arrayBuffer()).byteLength });
    },
  },
  { path: "/api/buffered", handler: (req) => new Response(Buffer.alloc(size(req), 120)) },
  { path: "/api/streamed", handler: (req) => new Response(stream(size(req))) },
  { path: "/api/endless", handler: () => new Response(stream(64 * 1024, false)) },
  { path: "/api/hangs", handler: never },
];

const servers: Server[] = [];
/** Netlify's sizes on one server, with its times; a 200 ms time limit on the other. */
let base: string;
let quick: string;
let errors: MockInstance<typeof console.error>;
/** The limits the host logged, by name. */
const logged = () =>
  errors.mock.calls
    .map(([line]) => JSON.parse(String(line)) as { event: string; limit: string; max: number; path: string })
    .filter((entry) => entry.event === "local_netlify.limit")
    .map(({ event, limit, max, path }) => ({ event, limit, max, path }));

async function serve(publish: string, limits: Partial<NetlifyLimits>): Promise<string> {
  const handler = createSiteHandler({ publish, headerRules: [], functions, limits });
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const publish = mkdtempSync(join(tmpdir(), "limits-"));
  writeFileSync(join(publish, "404.html"), "<h1>missing</h1>");
  base = await serve(publish, {});
  quick = await serve(publish, { synchronousMs: 200 });
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  errors.mockClear();
  calls.length = 0;
});
afterAll(async () => {
  errors.mockRestore();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Reads a body to its end or until the connection fails: the bytes that came, and whether it ended cleanly. */
async function drain(res: Response): Promise<{ bytes: number; complete: boolean }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
    return { bytes, complete: true };
  } catch {
    return { bytes, complete: false };
  }
}

describe("Netlify's limits on the local host", () => {
  it("keeps Netlify's documented values in one table", () => {
    expect(NETLIFY_LIMITS).toEqual({
      requestBytes: 6_291_456,
      bufferedResponseBytes: 6_291_456,
      streamedResponseBytes: 20_971_520,
      synchronousMs: 60_000,
      scheduledMs: 30_000,
      backgroundRequestBytes: 262_144,
      backgroundMs: 900_000,
    });
  });

  it("passes a 6 MB request body to the function whole", async () => {
    const res = await fetch(`${base}/api/upload`, { method: "POST", body: "x".repeat(6 * MB) });
    expect(await res.json()).toEqual({ received: 6_291_456 });
    expect(logged()).toEqual([]);
  });

  it("answers 413 to a request body one byte over 6 MB, without calling the function", async () => {
    const res = await fetch(`${base}/api/upload`, { method: "POST", body: "x".repeat(6 * MB + 1) });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("Request body too large: a function accepts at most 6291456 bytes.\n");
    expect(calls).toEqual([]);
    expect(logged()).toEqual([
      { event: "local_netlify.limit", limit: "requestBytes", max: 6_291_456, path: "/api/upload" },
    ]);
  });

  it("counts a sent-as-you-go body as it arrives, and refuses it at the same limit", async () => {
    const body = stream(6 * MB + 1);
    const res = await fetch(`${base}/api/upload`, { method: "POST", body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(calls).toEqual([]);
    expect(logged().map((entry) => entry.limit)).toEqual(["requestBytes"]);
  });

  it("counts a binary body base64-encoded, as Netlify sends it: 4.5 MB is the most it takes", async () => {
    const send = (bytes: number) =>
      fetch(`${base}/api/upload`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: Buffer.alloc(bytes),
      });
    expect(await (await send(4_718_592)).json()).toEqual({ received: 4_718_592 });
    expect((await send(4_718_593)).status).toBe(413);
  });

  it("sends a buffered response of 6 MB", async () => {
    const res = await fetch(`${base}/api/buffered?size=${6 * MB}`);
    expect(res.status).toBe(200);
    expect(await drain(res)).toEqual({ bytes: 6_291_456, complete: true });
    expect(logged()).toEqual([]);
  });

  it("answers a buffered response one byte over 6 MB with Netlify's 502", async () => {
    const res = await fetch(`${base}/api/buffered?size=${6 * MB + 1}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      errorMessage: "Response payload size exceeded maximum allowed payload size (6291456 bytes).",
      errorType: "Function.ResponseSizeTooLarge",
    });
    expect(logged()).toEqual([
      { event: "local_netlify.limit", limit: "bufferedResponseBytes", max: 6_291_456, path: "/api/buffered" },
    ]);
  });

  it("streams a response of 20 MB whole", async () => {
    const res = await fetch(`${base}/api/streamed?size=${20 * MB}`);
    expect(await drain(res)).toEqual({ bytes: 20_971_520, complete: true });
    expect(logged()).toEqual([]);
  });

  it("cuts a streamed response one byte over 20 MB after 20 MB, as Netlify ends the connection", async () => {
    const res = await fetch(`${base}/api/streamed?size=${20 * MB + 1}`);
    expect(res.status).toBe(200);
    expect(await drain(res)).toEqual({ bytes: 20_971_520, complete: false });
    expect(logged()).toEqual([
      { event: "local_netlify.limit", limit: "streamedResponseBytes", max: 20_971_520, path: "/api/streamed" },
    ]);
  });

  it("answers 502 when a synchronous function outlives its time (200 ms here, 60 s on Netlify)", async () => {
    const res = await fetch(`${quick}/api/hangs`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ errorMessage: "Task timed out after 0.20 seconds", errorType: "TimeoutError" });
    expect(logged()).toEqual([{ event: "local_netlify.limit", limit: "synchronousMs", max: 200, path: "/api/hangs" }]);
  });

  it("ends a response still streaming when the time runs out", async () => {
    const res = await fetch(`${quick}/api/endless`);
    expect(res.status).toBe(200);
    expect(await drain(res)).toEqual({ bytes: 65_536, complete: false });
    expect(logged().map((entry) => entry.limit)).toEqual(["synchronousMs"]);
  });

  it("calls a scheduled function as Netlify's scheduler does, and answers 502 past its time", async () => {
    const seen: Array<[string, string | null, string | null]> = [];
    const done = await runScheduled(async (req) => {
      seen.push([req.method, req.headers.get("x-nf-event"), req.headers.get("user-agent")]);
      return new Response(null, { status: 204 });
    }, "purge-pending");
    expect(done.status).toBe(204);
    expect(seen).toEqual([["POST", "schedule", "Netlify Clockwork"]]);

    const late = await runScheduled(never, "purge-pending", limitsWith({ scheduledMs: 200 }));
    expect(late.status).toBe(502);
    expect(await late.json()).toEqual({ errorMessage: "Task timed out after 0.20 seconds", errorType: "TimeoutError" });
    expect(logged()).toEqual([
      { event: "local_netlify.limit", limit: "scheduledMs", max: 200, path: "/.netlify/functions/purge-pending" },
    ]);
  });
});

// Netlify's own emulator against the platform, a constant each: here rather than beside the emulator's sizes in
// tests/platform/netlify-limits.test.ts, so that it runs with every pure test.
it("the emulator times a function out at 30 s, the platform at 60 s", () => {
  expect(SYNCHRONOUS_FUNCTION_TIMEOUT).toBe(30);
  expect(NETLIFY_LIMITS.synchronousMs).toBe(60_000);
});
