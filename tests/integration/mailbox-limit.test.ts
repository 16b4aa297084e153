/**
 * Mail limits per mailbox: plus-addressed sign-ups of one inbox (victim+1@…, Victim+2@…) get at most
 * MAILBOX_EMAILS_PER_DAY e-mails a day between them, confirmations and removal links alike, whatever the
 * allowance; the answers never differ. A real SMTP server on loopback counts what arrives.
 */
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/local-netlify/netlify-context";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { openPgliteDb } from "../../src/server/db/pglite";
import { createLinksHandler } from "../../src/server/links-handler";
import { mailboxOf } from "../../src/server/mail/mailbox";
import { createStore, type Store } from "../../src/server/store";
import { createWaitlistHandler } from "../../src/server/waitlist-handler";
import { migratedDataDir } from "./helpers";
import { startSmtp, type TestSmtp } from "./smtp";

const ORIGIN = "http://localhost:4321";
let smtp: TestSmtp;
let store: Store;
let config: ServerConfig;
const deps = { store: async () => store, config: () => config };
const signup = createWaitlistHandler(deps);
const links = createLinksHandler(deps);

beforeAll(async () => {
  smtp = await startSmtp();
  store = createStore(await openPgliteDb(migratedDataDir("mailbox-")));
  config = readConfig({ SMTP_URL: smtp.url, MAIL_FROM: "hello@noosphere.test", RATE_LIMIT_MAX: "1000" });
}, 60_000);
afterAll(async () => {
  await store.close();
  await smtp.close();
});

async function call(handler: typeof signup, request: Request) {
  const pending = new Set<Promise<unknown>>();
  const response = await handler(request, createContext(request, "198.51.100.60", pending) as Context);
  while (pending.size) await Promise.all(pending);
  return { status: response.status, body: await response.text() };
}
const signUp = (email: string) =>
  call(
    signup,
    new Request(`${ORIGIN}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, termsAccepted: true }),
    }),
  );
const askRemoval = (email: string) =>
  call(
    links,
    new Request(`${ORIGIN}/waitlist/remove`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email }).toString(),
    }),
  );
const mailedTo = (pattern: RegExp) => smtp.messages.filter((mail) => pattern.test(mail.to)).length;

describe("e-mails per mailbox", () => {
  it("20 plus-addressed sign-ups of one inbox put 3 e-mails in it, and every answer is the same", async () => {
    const answers = new Set<string>();
    for (let i = 1; i <= 20; i++) {
      const { status, body } = await signUp(`${i % 2 ? "victim" : "Victim"}+${i}@example.com`);
      answers.add(`${status} ${body}`);
    }
    expect([...answers]).toEqual(['201 {"ok":true,"confirmation":"sent"}']);
    expect(mailedTo(/^victim\+\d+@example\.com$/i)).toBe(3);
  });

  it("removal links count against the same mailbox, and answer the same page", async () => {
    const { status } = await askRemoval("victim+1@example.com");
    expect(status).toBe(303);
    expect(mailedTo(/^victim\+\d+@example\.com$/i)).toBe(3);
  });

  it("another mailbox is not held back, and a held-back address is mailed when its day allows", async () => {
    expect((await signUp("neighbour@example.com")).status).toBe(201);
    expect(mailedTo(/^neighbour@example\.com$/)).toBe(1);
    // The next day (UTC) the held-back address, signing up again, is mailed: it was never marked as sent.
    await store.db.query("UPDATE waitlist_mailbox_day SET day = day - 1");
    expect((await signUp("victim+20@example.com")).status).toBe(201);
    expect(smtp.messages.filter((mail) => mail.to === "victim+20@example.com")).toHaveLength(1);
  });
});

describe("a mailbox", () => {
  it.each([
    ["victim@example.com", "victim@example.com"],
    ["Victim+News@Example.COM", "victim@example.com"],
    ["victim+a+b@example.com", "victim@example.com"],
    ["first.last@example.com", "first.last@example.com"],
    ["+tag@example.com", "@example.com"],
  ])("of %s is %s", (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});
