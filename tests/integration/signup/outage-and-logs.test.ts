/**
 * A database that never answers, and the logs: a bounded 503 with one log line, and log lines without personal
 * data, against the real handler.
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeStore } from "../../../src/server/app/instance";
import { resetConfig } from "../../../src/server/config";
import { post } from "../../support/helpers";
import { signupSuite } from "../../support/signup-suite";

const valid = { email: "valid@example.com", termsAccepted: true };
const { call } = signupSuite("outage-");

/** Captures every console line written while `run` runs. */
async function captureLogs<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const originals = { log: console.log, warn: console.warn, error: console.error };
  for (const level of ["log", "warn", "error"] as const)
    console[level] = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    return { result: await run(), lines };
  } finally {
    Object.assign(console, originals);
  }
}

describe("a database that hangs", () => {
  let server: ReturnType<typeof createHttpServer>;

  beforeAll(async () => {
    await closeStore();
    server = createHttpServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    // Through the configuration, as a deployer would set it (NEON_FETCH_ENDPOINT), not the driver's global.
    vi.stubEnv("NEON_FETCH_ENDPOINT", `http://127.0.0.1:${(server.address() as AddressInfo).port}/sql`);
    vi.stubEnv("DATABASE_URL", "postgresql://user:secret@ep-hang.example.neon.tech/db");
    vi.stubEnv("DB_TIMEOUT_MS", "400");
    resetConfig();
  });

  afterAll(async () => {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DB_TIMEOUT_MS", "");
    vi.stubEnv("NEON_FETCH_ENDPOINT", "");
    resetConfig();
    await closeStore();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // The database never answers: the test's own timeout (well above DB_TIMEOUT_MS) is the bound.
  it("answers 503 within the bounded time, with one log line and no personal data", { timeout: 5000 }, async () => {
    const { result: res, lines: all } = await captureLogs(() =>
      call(post({ ...valid, email: "slow.person@example.com", name: "Slow Person" }), "203.0.113.200"),
    );
    // Which secret is in use is said once per process, by whichever test of this worker reads it first.
    const lines = all.filter((line) => !line.includes('"event":"server.secret"'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "The waitlist is unavailable right now. Please try again." });
    expect(lines, lines.join("\n")).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: "error", event: "waitlist.store_failed" });
    expect(lines[0]).not.toMatch(/slow|secret|example|203\.0\.113/i);
  });
});

describe("logs", () => {
  it("are one JSON line per event, without e-mail, name or IP", async () => {
    const { lines } = await captureLogs(async () => {
      await call(post({ ...valid, email: "logcheck@example.com", name: "Logan Check" }), "203.0.113.77");
      await call(post({ ...valid, email: "logcheck@example.com", homepage: "x" }), "203.0.113.77");
      await call(post({ ...valid, email: "nope", name: "Logan Check" }), "203.0.113.77");
    });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow();
      expect(line).not.toMatch(/logcheck|Logan|203\.0\.113\.77/);
    }
  });
});
