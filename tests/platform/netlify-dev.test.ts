/**
 * The built site and its functions under Netlify's own emulator (`@netlify/dev`) with Netlify Database
 * enabled: the functions reach its Postgres through NETLIFY_DB_URL (driver `server`), as `netlify dev` runs
 * them. Each function call is built by the emulator first (seconds), hence the few, larger cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "./netlify-dev";

const TOKEN = "platform-test-export-token";
const email = `emulated.${Date.now()}@example.com`;
let emulator: Emulator;

const signUp = (address: string) =>
  emulator.fetch("/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: address, termsAccepted: true, why: "to think together" }),
  });

beforeAll(async () => {
  process.env["WAITLIST_ADMIN_TOKEN"] = TOKEN;
  process.env["RATE_LIMIT_MAX"] = "1000";
  emulator = await startEmulator({ database: true });
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
});

describe("under @netlify/dev with Netlify Database", () => {
  it("gives NETLIFY_DB_URL to functions with the server driver", () => {
    expect(process.env["NETLIFY_DB_URL"]).toMatch(/^postgres(ql)?:\/\//);
    expect(process.env["NETLIFY_DB_DRIVER"]).toBe("server");
  });

  it.each([
    ["/", 200],
    ["/product", 200],
    ["/terms-of-service", 200],
    ["/join", 200],
    ["/no-such-page", 404],
  ])("serves %s with %i", async (path, status) => {
    const res = await emulator.fetch(path);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  it("stores a sign-up in Netlify Database, and answers a repeat identically", async () => {
    const first = await signUp(email);
    expect(first.status).toBe(201);
    const body = await first.text();
    const rows = await emulator.query<{ email: string; message: string }>(
      "SELECT email, message FROM waitlist WHERE lower(email) = lower($1)",
      [email],
    );
    expect(rows).toEqual([{ email, message: "Why: to think together" }]);

    const repeat = await signUp(email.toUpperCase());
    expect(repeat.status).toBe(first.status);
    expect(await repeat.text()).toBe(body);
    const again = await emulator.query("SELECT 1 FROM waitlist WHERE lower(email) = lower($1)", [email]);
    expect(again).toHaveLength(1);
  }, 60_000);

  it("exports the list with the token, and only with it", async () => {
    const denied = await emulator.fetch("/api/waitlist/export");
    expect(denied.status).toBe(401);
    const res = await emulator.fetch("/api/waitlist/export", { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await res.text()).toContain(email);
  }, 60_000);
});
