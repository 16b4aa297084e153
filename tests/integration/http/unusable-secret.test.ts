/**
 * A server secret that cannot be used (issue 53, item 2) stops every function: each answers 500 with one log line
 * naming the variable, before it opens the database or does anything else. Every module in netlify/functions/.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, it, vi } from "vitest";
import { resetConfig } from "../../../src/server/config";
import { fakeContext, tempDataDir } from "../../support/helpers";

const FUNCTIONS = readdirSync("netlify/functions").filter((name) => name.endsWith(".ts"));
const LINE =
  "SERVER_SECRET holds 5 bytes; it must hold at least 32 random bytes (64 hex digits or 44 base64 characters): make one with `openssl rand -base64 32`.";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

it("covers the 18 functions", () => {
  expect(FUNCTIONS).toHaveLength(18);
});

it.each(FUNCTIONS)("%s answers 500 with one line naming SERVER_SECRET", async (file) => {
  const dataDir = join(tempDataDir("unusable-secret-"), "never-made");
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NETLIFY_DB_URL", "");
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("SERVER_SECRET", "letmein");
  resetConfig();
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)));
  }
  const handler = (await import(/* @vite-ignore */ pathToFileURL(resolve("netlify/functions", file)).href)).default;
  const request = new Request("http://localhost/api/waitlist", { method: "POST", body: "{}" });
  const response: Response = await handler(request, fakeContext());
  expect(response.status).toBe(500);
  expect(await response.text()).toBe("This site is misconfigured: its operator has been told what to fix.\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ level: "error", event: "config.unusable", problem: LINE });
  expect(existsSync(dataDir)).toBe(false);
});
