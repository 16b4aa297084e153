import type { Context } from "@netlify/functions";
import { inject, vi } from "vitest";
import { createContext } from "../../dev/local-netlify/netlify-context";
import { allowEmbeddedDatabase, closeStore, getStore } from "../../src/server/app/instance";
import { resetConfig } from "../../src/server/config";
import { openPgliteDb } from "../../src/server/db/pglite";
import { copyDatabase, tempDataDir } from "./embedded-database";

export { tempDataDir };

/**
 * A fresh folder holding an empty embedded database with every migration applied: a copy of the one that
 * pglite-template.setup.ts made for this run. Tests of what happens to a new or missing folder use tempDataDir.
 */
export function migratedDataDir(prefix = "waitlist-"): string {
  return copyDatabase(inject("pgliteTemplate"), prefix);
}

/** What Netlify passes as the second argument, as the local server builds it, from `ip`. */
export function fakeContext(ip = "203.0.113.7"): Context {
  return createContext(new Request("http://localhost/api/waitlist"), ip, new Set());
}

export function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * Points the process's store at a fresh, migrated embedded database (no DATABASE_URL) with the rate limit set to
 * `rateLimitMax` (these tests post many times from few addresses), and opens it. Returns the folder.
 */
export async function useEmbeddedStore(prefix: string, rateLimitMax: number, dataDir = migratedDataDir(prefix)) {
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NETLIFY_DB_URL", "");
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("RATE_LIMIT_MAX", String(rateLimitMax));
  resetConfig();
  allowEmbeddedDatabase(openPgliteDb);
  await getStore();
  return dataDir;
}

/** Closes the store that useEmbeddedStore opened and forgets its settings. */
export async function releaseEmbeddedStore() {
  await closeStore();
  vi.unstubAllEnvs();
  resetConfig();
}
