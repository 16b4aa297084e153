/**
 * Netlify's own emulator (`@netlify/dev`) keeps none of the platform's size limits, and times a function out at
 * 30 s with a 500 where the platform allows 60 s and answers 502; `npm start`'s host keeps the platform's
 * (dev/local-netlify/limits.ts). This pins the difference, so that a change on either side shows against the table
 * in docs/deploying.md (the 30 s, a constant, is pinned in tests/unit/netlify-limits.test.ts, with the pure tests).
 * One function on a project of its own: no build needed, no folder shared with this one's.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { loadFunctions } from "../../dev/local-netlify/functions";
import { createSiteHandler } from "../../dev/local-netlify/site-server";
import { type Emulator, startEmulator } from "./netlify-dev";

const MB = 1024 * 1024;
const FUNCTION = `export default async (req) => {
  const kind = new URL(req.url).searchParams.get("kind");
  if (kind === "upload") {
    const received = String((await req.arrayBuffer()).byteLength);
    return new Response(null, { status: 204, headers: { "x-received": received } });
  }
  if (kind === "buffered") return new Response("x".repeat(${6 * MB + 1}));
  const chunk = new Uint8Array(65536).fill(120);
  let left = ${20 * MB + 1};
  return new Response(new ReadableStream({ pull(c) {
    if (left === 0) return c.close();
    const part = chunk.subarray(0, Math.min(left, chunk.length));
    left -= part.length;
    c.enqueue(part);
  } }));
};
export const config = { path: "/limits" };
`;
const CASES: Array<[string, RequestInit?]> = [
  ["upload", { method: "POST", body: "x".repeat(6 * MB + 1) }],
  ["buffered"],
  ["streamed"],
];

let emulator: Emulator;
let server: Server;
let base: string;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "limits-project-"));
  mkdirSync(join(root, "netlify", "functions"), { recursive: true });
  mkdirSync(join(root, "public"));
  writeFileSync(join(root, "netlify.toml"), '[build]\n  publish = "public"\n  functions = "netlify/functions"\n');
  writeFileSync(join(root, "public", "404.html"), "<h1>missing</h1>");
  writeFileSync(join(root, "netlify", "functions", "limits.mjs"), FUNCTION);
  emulator = await startEmulator({ database: false, projectRoot: root });
  const functions = await loadFunctions(join(root, "netlify", "functions"));
  const handler = createSiteHandler({ publish: join(root, "public"), headerRules: [], functions });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The host's log line for each refusal; what it says is tested in tests/unit/netlify-limits.test.ts.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise((resolve) => server.close(resolve));
  await emulator?.stop();
});

/** What came back, in words: the status, and the bytes of a body that came (whole, or cut short). */
async function summary(res: Response): Promise<string> {
  if (res.status === 204) return `204, received ${res.headers.get("x-received")} bytes`;
  if (res.status !== 200) {
    await res.body?.cancel();
    return String(res.status);
  }
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
    return `200, ${bytes} bytes`;
  } catch {
    return `200, cut after ${bytes} bytes`;
  }
}

it("the emulator passes every size the platform refuses; npm start's host refuses each as the platform does", async () => {
  const emulated: Record<string, string> = {};
  const local: Record<string, string> = {};
  for (const [kind, init] of CASES) {
    emulated[kind] = await summary(await emulator.fetch(`/limits?kind=${kind}`, init));
    local[kind] = await summary(await fetch(`${base}/limits?kind=${kind}`, init));
  }
  expect(emulated).toEqual({
    upload: "204, received 6291457 bytes",
    buffered: "200, 6291457 bytes",
    streamed: "200, 20971521 bytes",
  });
  expect(local).toEqual({ upload: "413", buffered: "502", streamed: "200, cut after 20971520 bytes" });
});
