/**
 * Each e-mail's words are true for the person who receives it (issue 31, item 12): an invitation says "you
 * confirmed your address" only to someone who did, by its link; someone stored while e-mail was off, invited once
 * it is on, reads that the address joined the list. On every backend, through a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/server/app/store";
import { earlyAccessBase, runWave } from "../../../src/server/invitations";
import { createSmtpMailer } from "../../../src/server/mail/mailer";
import { backends, type OpenedStore } from "../../support/backends";
import { startSmtp, type TestSmtp } from "../../support/smtp";

describe.each(backends("invitation_words"))("%s", (_name, available, open) => {
  let opened: OpenedStore;
  let store: Store;
  let smtp: TestSmtp;

  beforeAll(async () => {
    if (!available) return;
    opened = await open();
    store = opened.store;
    smtp = await startSmtp();
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
    await smtp?.close();
  });

  it.skipIf(!available)("only a person who confirmed by link is told so", async () => {
    // Stored while e-mail was off: confirmed at once, never by a link.
    expect(await store.add({ name: null, email: "offline@example.com", message: null }, "confirmed")).toBe(true);
    // Signed up with e-mail on, then confirmed by the link.
    expect(await store.add({ name: null, email: "linked@example.com", message: null }, "pending")).toBe(true);
    await store.db.query(
      "UPDATE waitlist SET status = 'confirmed', confirmed_at = now() WHERE email = 'linked@example.com'",
    );
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: "Noosphere <hello@noosphere.test>" });
    try {
      const report = await runWave({
        store,
        next: 2,
        delivery: { kind: "mail", mailer },
        accessUrl: earlyAccessBase("https://app.noosphere.test/signup"),
        siteUrl: "http://localhost:4321",
        ttlDays: 30,
      });
      expect(report.invited).toBe(2);
    } finally {
      mailer.close();
    }
    const [offline] = await smtp.waitFor("offline@example.com");
    const [linked] = await smtp.waitFor("linked@example.com");
    expect(offline?.text).toContain("You are receiving this because this address joined the Noosphere waitlist.");
    expect(offline?.text).not.toContain("confirmed");
    expect(linked?.text).toContain(
      "You are receiving this because you joined the Noosphere waitlist and confirmed your address.",
    );
  });
});
