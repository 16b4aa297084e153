/**
 * An invitation sent again by the team (src/server/invitations/resend.ts; the console's side:
 * tests/e2e/invited-person.spec.ts): once, with a new code in the first's place and the invitation's end kept or
 * moved to INVITE_TTL_DAYS from now; refused before anything changes when the mailbox has had its e-mails for the
 * day; undone (the first code, its end and the claim back) when the e-mail does not go. On every backend, the
 * e-mail that goes through a real SMTP server.
 */
import { describe, expect, it } from "vitest";
import { MAILBOX_EMAILS_PER_DAY } from "../../../src/lib/waitlist/consent";
import { earlyAccessBase, resendInvitation } from "../../../src/server/invitations";
import { Suppressed } from "../../../src/server/mail/guard";
import { createSmtpMailer, type Mailer } from "../../../src/server/mail/mailer";
import { backends, useBackend } from "../../support/backends";
import { inviteByMail, MAIL_FROM, ORIGIN } from "../../support/invitations-harness";
import { startSmtp } from "../../support/smtp";

const MAILBOX = "mailbox-key-of-ann";

describe.each(backends("resend"))("an invitation sent again, on %s", (_name, available, open) => {
  const backend = useBackend(available, open);
  /** Ann, invited by a wave of one: her row's invitation as stored. */
  const invited = async () => {
    const db = backend.store.db;
    await db.query("DELETE FROM waitlist");
    await db.query("DELETE FROM waitlist_mailbox_day");
    await db.query("INSERT INTO waitlist (email, status, confirmed_at) VALUES ('ann@example.com', 'confirmed', now())");
    expect((await inviteByMail(backend.store, 1)).report.invited).toBe(1);
    return invitation();
  };
  const invitation = async () => {
    const [row] = await backend.store.db.query<{ id: number; hash: string; expires: string; tokens: number }>(
      `SELECT id, invite_code_hash AS hash, invite_expires_at::text AS expires,
        (SELECT count(*)::int FROM waitlist_token t WHERE t.waitlist_id = w.id) AS tokens
       FROM waitlist w WHERE email = 'ann@example.com'`,
    );
    const claims = await backend.store.db.query("SELECT 1 FROM mail_reminder WHERE kind = 'resend'");
    return { id: Number(row?.id), hash: row?.hash, expires: row?.expires, tokens: row?.tokens, claims: claims.length };
  };
  const resend = (mailer: Mailer, id: number, ttlDays = 30) =>
    resendInvitation({
      store: backend.store,
      mailer,
      person: { id, email: "ann@example.com" },
      mailboxKey: MAILBOX,
      accessUrl: earlyAccessBase("https://app.noosphere.test/signup"),
      site: ORIGIN,
      ttlDays,
    });
  const failing = (error: Error): Mailer => ({
    send: async () => {
      throw error;
    },
    close: () => {},
  });

  it.runIf(available)("goes once, with a new code in the first's place; its end is kept when later", async () => {
    const first = await invited();
    const smtp = await startSmtp();
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: MAIL_FROM });
    try {
      // One day from now is before the invitation's end (30 days): the end is kept.
      const sent = await resend(mailer, first.id, 1);
      expect(sent.outcome).toBe("sent");
      const [mail] = await smtp.waitFor("ann@example.com");
      expect(mail?.subject).toBe("Noosphere: your early access is ready");
      expect(mail?.links[0]).toMatch(/^https:\/\/app\.noosphere\.test\/signup\?invite=[\w-]{27}$/);
      const after = await invitation();
      expect(after.hash).not.toBe(first.hash);
      expect(after.expires).toBe(first.expires);
      // Its own leave and status links beside the first e-mail's, and the claim that makes it once.
      expect(after.tokens).toBe(Number(first.tokens) + 2);
      expect(after.claims).toBe(1);
      expect(await resend(mailer, first.id)).toEqual({ outcome: "not-invited" });
      expect(smtp.messages).toHaveLength(1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it.runIf(available)("past the mailbox's e-mails for the day, refused before anything changes", async () => {
    const first = await invited();
    await backend.store.db.query(
      "INSERT INTO waitlist_mailbox_day (mailbox_key, day, sent) VALUES ($1, current_date, $2)",
      [MAILBOX, MAILBOX_EMAILS_PER_DAY],
    );
    const sent: string[] = [];
    const recording: Mailer = { send: async (to) => void sent.push(to), close: () => {} };
    expect(await resend(recording, first.id)).toEqual({ outcome: "mailbox-limited" });
    expect(sent).toEqual([]);
    expect(await invitation()).toEqual(first);
  });

  it.runIf(available)("an e-mail that does not go is undone: the first code, its end and the claim back", async () => {
    const first = await invited();
    expect(await resend(failing(new Error("connect ECONNREFUSED 127.0.0.1:25")), first.id)).toEqual({
      outcome: "failed",
    });
    expect(await invitation()).toEqual(first);
    expect(await resend(failing(new Suppressed("suppressed")), first.id)).toEqual({ outcome: "suppressed" });
    expect(await invitation()).toEqual(first);
  });
});
