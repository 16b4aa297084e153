/**
 * A value that cannot be read (issue 53, item 5: `RATE_LIMIT_MAX=ten`) is never taken as its default: every function
 * answers 500 with one log line naming the variable, the value's problem and what it accepts, before it opens the
 * database. Every module in netlify/functions/.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, it, vi } from "vitest";
import { resetConfig } from "../../../src/server/config";
import { fakeContext, tempDataDir } from "../../support/helpers";

const FUNCTIONS = readdirSync("netlify/functions").filter((name) => name.endsWith(".ts"));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

it.each(FUNCTIONS)("%s answers 500 with one line naming RATE_LIMIT_MAX", async (file) => {
  const dataDir = join(tempDataDir("unreadable-"), "never-made");
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NETLIFY_DB_URL", "");
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("RATE_LIMIT_MAX", "ten");
  resetConfig();
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)));
  }
  const handler = (await import(/* @vite-ignore */ pathToFileURL(resolve("netlify/functions", file)).href)).default;
  const request = new Request("http://localhost/api/waitlist", { method: "POST", body: "{}" });
  const response: Response = await handler(request, fakeContext());
  expect(response.status).toBe(500);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
    level: "error",
    event: "config.unusable",
    problem: 'RATE_LIMIT_MAX is "ten", which cannot be read: it accepts a whole number from 1 up (unset: 10).',
  });
  expect(existsSync(dataDir)).toBe(false);
});
