/**
 * The invitation tests' shared ground (invitations.test.ts, invitations-redeem.test.ts), made afresh by each
 * backend's describe block that calls inviteGround(): its store, a real SMTP server on 127.0.0.1 per test, a mailer
 * to it, the configuration, the redemption and sign-up handlers, and helpers to seed, run a wave and redeem. `g`
 * holds what a test may replace. inviteByMail serves suites that only need people invited, not this ground.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Store } from "../../src/server/app/store";
import { readConfig, type ServerConfig } from "../../src/server/config";
import { earlyAccessBase, runWave, type WaveOptions } from "../../src/server/invitations";
import { createRedeemHandler } from "../../src/server/invitations/redeem-handler";
import { createSmtpMailer, type Mailer } from "../../src/server/mail/mailer";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import type { OpenedStore } from "./backends";
import { startSmtp, type TestSmtp } from "./smtp";

export const ORIGIN = "http://localhost:4321";
export const TOKEN = "redeem-token-0123456789abcdef0123456789";
export const ACCESS = "https://app.noosphere.test/signup?from=waitlist";
export const MAIL_FROM = "Noosphere <hello@noosphere.test>";

/**
 * One wave of `next` invitations from `store` to the product's page at app.noosphere.test, mailed to an SMTP server
 * of its own on 127.0.0.1 (closed after): the wave's report and every e-mail that server took (each is kept before
 * its 250 answers, so all are there once the wave returns).
 */
export async function inviteByMail(store: Store, next: number) {
  const smtp = await startSmtp();
  const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: MAIL_FROM });
  try {
    const report = await runWave({
      store,
      next,
      delivery: { kind: "mail", mailer },
      accessUrl: earlyAccessBase("https://app.noosphere.test/signup"),
      siteUrl: ORIGIN,
      ttlDays: 30,
    });
    return { report, mails: smtp.messages };
  } finally {
    mailer.close();
    await smtp.close();
  }
}

export function inviteGround(available: boolean, open: () => Promise<OpenedStore>) {
  const g = {
    smtp: undefined as unknown as TestSmtp,
    mailer: undefined as unknown as Mailer,
    store: undefined as unknown as Store,
    config: readConfig({}) as ServerConfig,
  };
  let opened: OpenedStore | undefined;
  const redeemHandler = createRedeemHandler({ store: async () => g.store, config: () => g.config });
  const signupHandler = createWaitlistHandler({ store: async () => g.store, config: () => g.config });

  /** Sign-ups with the given statuses, one a day from 2026-01-01 on, in this order: their addresses. */
  async function seed(...people: Array<[string, string]>) {
    await g.store.db.query("DELETE FROM waitlist");
    await g.store.db.query("DELETE FROM waitlist_invite_wave");
    for (const [index, [email, status]] of people.entries()) {
      await g.store.db.query(
        "INSERT INTO waitlist (name, email, status, created_at) VALUES ($1, $2, $3, $4::timestamptz)",
        [email.split("@")[0]?.toUpperCase(), email, status, `2026-01-${String(index + 1).padStart(2, "0")}T12:00:00Z`],
      );
    }
  }

  const statuses = async () =>
    Object.fromEntries(
      (await g.store.db.query<{ email: string; status: string }>("SELECT email, status FROM waitlist ORDER BY id")).map(
        (row) => [row.email, row.status],
      ),
    );

  const wave = (next: number, extra: Partial<WaveOptions> = {}) =>
    runWave({
      store: g.store,
      next,
      delivery: { kind: "mail", mailer: g.mailer },
      accessUrl: earlyAccessBase(ACCESS),
      siteUrl: ORIGIN,
      ttlDays: 30,
      ...extra,
    });

  /** The invite code in the one e-mail `to` received. */
  const codeOf = async (to: string) => {
    const [mail] = await g.smtp.waitFor(to);
    const link = mail?.links.find((l) => l.startsWith("https://app.noosphere.test/"));
    return new URL(link ?? "http://x").searchParams.get("invite") ?? "";
  };

  const redeem = (body: unknown, token: string | null = TOKEN, init: RequestInit = {}) =>
    redeemHandler(
      new Request(`${ORIGIN}/api/invites/redeem`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...init,
      }),
    );

  beforeAll(async () => {
    if (!available) return;
    opened = await open();
    g.store = opened.store;
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
  });
  afterEach(() => g.smtp.close());
  beforeEach(async () => {
    g.smtp = await startSmtp({ refuse: ["refused@example.com"] });
    g.mailer = createSmtpMailer({ smtpUrl: g.smtp.url, from: MAIL_FROM });
    g.config = readConfig({ INVITE_REDEEM_TOKEN: TOKEN, RATE_LIMIT_MAX: "1000" });
  });

  return { g, seed, statuses, wave, codeOf, redeem, redeemHandler, signupHandler };
}
