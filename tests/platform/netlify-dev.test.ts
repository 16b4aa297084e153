/**
 * The built site and its functions under Netlify's own emulator (`@netlify/dev`) with Netlify Database
 * enabled: the functions reach its Postgres through NETLIFY_DB_URL (driver `server`), as `netlify dev` runs
 * them. Each function call is built by the emulator first (seconds), hence the few, larger cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { type Emulator, ORIGIN, startEmulator } from "./netlify-dev";

const TOKEN = "platform-test-export-token-0123456789abcdef";
const email = `emulated.${Date.now()}@example.com`;
let emulator: Emulator;
let smtp: TestSmtp;

const signUp = (address: string) =>
  emulator.fetch("/api/waitlist", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: address, termsAccepted: true, why: "to think together" }),
  });

beforeAll(async () => {
  smtp = await startSmtp();
  process.env["WAITLIST_ADMIN_TOKEN"] = TOKEN;
  process.env["RATE_LIMIT_MAX"] = "1000";
  // Confirmation by e-mail on, through a real SMTP server on 127.0.0.1.
  process.env["SMTP_URL"] = smtp.url;
  process.env["MAIL_FROM"] = "Noosphere <hello@noosphere.test>";
  emulator = await startEmulator({ database: true });
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await smtp?.close();
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

  it("mails the confirmation after the answer, and the link's POST confirms the row in Netlify Database", async () => {
    const address = `confirm.${Date.now()}@example.com`;
    const res = await signUp(address);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true, confirmation: "sent" });
    const [mail] = await smtp.waitFor(address);
    const link = mail?.links.find((href) => new URL(href).pathname === "/waitlist/confirm") ?? "";
    expect(new URL(link).origin).toBe(ORIGIN);
    const status = () => emulator.query<{ status: string }>("SELECT status FROM waitlist WHERE email = $1", [address]);
    expect(await status()).toEqual([{ status: "pending" }]);
    // The link's GET is the static page; its button posts back to the same address.
    expect((await emulator.fetch(new URL(link).pathname + new URL(link).search)).status).toBe(200);
    const confirmed = await emulator.fetch(new URL(link).pathname + new URL(link).search, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toEqual(
      expect.stringMatching(/^\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/),
    );
    expect(await status()).toEqual([{ status: "confirmed" }]);
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
