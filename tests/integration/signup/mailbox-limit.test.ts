/**
 * Mail limits per mailbox: plus-addressed sign-ups of one inbox (victim+1@…, Victim+2@…) get at most
 * MAILBOX_EMAILS_PER_DAY e-mails a day between them, confirmations and removal links alike, whatever the
 * allowance; the answers never differ. A real SMTP server on loopback counts what arrives.
 */
import { describe, expect, it } from "vitest";
import { mailboxOf } from "../../../src/server/mail/mailbox";
import { backends } from "../../support/backends";
import { consentHarness } from "../../support/consent-harness";

describe.each(backends("mailbox"))("e-mails per mailbox, on %s", (_name, available, open) => {
  const { state, signUp: post, requestRemoval } = consentHarness(available, open);
  const signUp = async (email: string) => {
    const response = await post(email);
    return { status: response.status, body: await response.text() };
  };
  const mailedTo = (pattern: RegExp) => state.smtp.messages.filter((mail) => pattern.test(mail.to)).length;

  it.skipIf(!available)(
    "20 plus-addressed sign-ups of one inbox put 3 e-mails in it, and every answer is the same",
    async () => {
      const answers = new Set<string>();
      for (let i = 1; i <= 20; i++) {
        const { status, body } = await signUp(`${i % 2 ? "victim" : "Victim"}+${i}@example.com`);
        answers.add(`${status} ${body}`);
      }
      expect([...answers]).toEqual(['201 {"ok":true,"confirmation":"sent"}']);
      expect(mailedTo(/^victim\+\d+@example\.com$/i)).toBe(3);
    },
  );

  it.skipIf(!available)("removal links count against the same mailbox, and answer the same page", async () => {
    const { status } = await requestRemoval("victim+1@example.com");
    expect(status).toBe(303);
    expect(mailedTo(/^victim\+\d+@example\.com$/i)).toBe(3);
  });

  it.skipIf(!available)(
    "another mailbox is not held back, and a held-back address is mailed when its day allows",
    async () => {
      expect((await signUp("neighbour@example.com")).status).toBe(201);
      expect(mailedTo(/^neighbour@example\.com$/)).toBe(1);
      // The next day (UTC) the held-back address, signing up again, is mailed: it was never marked as sent.
      await state.store.db.query("UPDATE waitlist_mailbox_day SET day = day - 1");
      expect((await signUp("victim+20@example.com")).status).toBe(201);
      expect(state.smtp.messages.filter((mail) => mail.to === "victim+20@example.com")).toHaveLength(1);
    },
  );
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
