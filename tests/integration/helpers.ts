import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Context } from "@netlify/functions";

/** A fresh, empty folder for an embedded database. */
export function tempDataDir(prefix = "waitlist-"): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), "data");
}

/** What Netlify passes as the second argument; the handler reads only `ip`. */
export function fakeContext(ip = "203.0.113.7"): Context {
  return { ip } as Context;
}

export function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
