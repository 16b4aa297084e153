/**
 * Background functions on the local host (dev/local-netlify/run-function.ts, runBackground) as Netlify runs them:
 * a name ending in `-background` is answered 202 with no body before the function runs, the work goes on detached
 * (the server's `settled` waits for it), a request over 256 KB is refused without calling it, and the run is cut
 * at its 15 minutes (shortened here). The values are held to Netlify's own tools: @netlify/functions'
 * BACKGROUND_FUNCTION_TIMEOUT and the suffix @netlify/functions-dev reads.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKGROUND_FUNCTION_TIMEOUT } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { BACKGROUND_SUFFIX, NETLIFY_LIMITS } from "../../dev/local-netlify/limits";
import { createSiteHandler, type FunctionRoute } from "../../dev/local-netlify/site-server";

let release = () => {};
const finished: string[] = [];
const functions: FunctionRoute[] = [
  {
    name: "work-background",
    path: "/.netlify/functions/work-background",
    handler: async (req) => {
      const body = await req.text();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished.push(body);
      return new Response("the function's own answer, which nobody reads", { status: 200 });
    },
  },
  {
    name: "forever-background",
    path: "/.netlify/functions/forever-background",
    handler: () => new Promise<Response>(() => {}),
  },
];

let server: Server;
let base: string;
let settled: () => Promise<void>;
let errors: MockInstance<typeof console.error>;

beforeAll(async () => {
  const handler = createSiteHandler({
    publish: mkdtempSync(join(tmpdir(), "background-")),
    headerRules: [],
    functions,
    limits: { backgroundMs: 200 },
  });
  settled = handler.settled;
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterAll(async () => {
  errors.mockRestore();
  await new Promise((resolve) => server.close(resolve));
});

describe("background functions on the local host", () => {
  it("answers 202 with no body at once, while the function still runs; it ends detached", async () => {
    const res = await fetch(`${base}/.netlify/functions/work-background`, { method: "POST", body: "job 1" });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
    expect(finished).toEqual([]);
    release();
    await settled();
    expect(finished).toEqual(["job 1"]);
  });

  it("refuses a request over 256 KB without calling the function; 256 KB exactly is taken", async () => {
    const over = await fetch(`${base}/.netlify/functions/work-background`, {
      method: "POST",
      body: "x".repeat(256 * 1024 + 1),
    });
    expect(over.status).toBe(413);
    expect(await over.text()).toBe("Request body too large: a function accepts at most 262144 bytes.\n");
    const exact = await fetch(`${base}/.netlify/functions/work-background`, {
      method: "POST",
      body: "y".repeat(256 * 1024),
    });
    expect(exact.status).toBe(202);
    release();
    await settled();
    expect(finished.map((body) => body.length)).toEqual([5, 262_144]);
  });

  it("stops waiting for a run at its time limit, and says so", async () => {
    errors.mockClear();
    const res = await fetch(`${base}/.netlify/functions/forever-background`, { method: "POST", body: "" });
    expect(res.status).toBe(202);
    await settled();
    const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: "local_netlify.limit", limit: "backgroundMs", max: 200 }),
    );
  });

  it("holds Netlify's own figures: 15 minutes, and the name's suffix", () => {
    expect(NETLIFY_LIMITS.backgroundMs).toBe(BACKGROUND_FUNCTION_TIMEOUT * 1000);
    const dev = readFileSync("node_modules/@netlify/functions-dev/dist/main.js", "utf8");
    expect(dev).toContain(`BACKGROUND_FUNCTION_SUFFIX = "${BACKGROUND_SUFFIX}"`);
  });
});
