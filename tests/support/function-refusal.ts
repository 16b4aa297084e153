/**
 * What the tests of a setting that stops every function share (tests/integration/http/unreadable-setting and
 * unusable-secret): every module in netlify/functions/, each called once with a given environment and no database,
 * and what it answered and logged.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, vi } from "vitest";
import { resetConfig } from "../../src/server/config";
import { fakeContext, tempDataDir } from "./helpers";

export const FUNCTIONS = readdirSync("netlify/functions").filter((name) => name.endsWith(".ts"));

/** The environment, the console and the config as they were, after each test of the file that calls it. */
export function restoreAfterEach() {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    resetConfig();
  });
}

/**
 * POSTs `{}` to `file`'s handler with `env` set, on an embedded database whose folder does not exist: its answer,
 * every line it logged, and whether it made that folder (opened the database).
 */
export async function callWithEnv(file: string, env: Record<string, string>) {
  const dataDir = join(tempDataDir("refusal-"), "never-made");
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NETLIFY_DB_URL", "");
  vi.stubEnv("DATA_DIR", dataDir);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)));
  }
  const handler = (await import(/* @vite-ignore */ pathToFileURL(resolve("netlify/functions", file)).href)).default;
  const request = new Request("http://localhost/api/waitlist", { method: "POST", body: "{}" });
  const response: Response = await handler(request, fakeContext());
  return { response, lines, openedDatabase: existsSync(dataDir) };
}
