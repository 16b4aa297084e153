/**
 * Mail settings and outages: with the SMTP server down a sign-up is still stored and answered, and a repeat
 * re-sends; with mail off sign-ups are stored confirmed; SITE_URL and MAIL_FROM are read strictly.
 */
import { describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/server/config";
import { SITE } from "../../../src/site";
import { backends } from "../../support/backends";
import { consentHarness, linkTo, mailConfig } from "../../support/consent-harness";
import { type CapturedMail, startSmtp } from "../../support/smtp";

describe.each(backends("mail"))("on %s", (_name, available, open) => {
  const { state, signUp, pressButton, requestRemoval, statusOf } = consentHarness(available, open);

  describe.skipIf(!available)("when the SMTP server is down", () => {
    it("the sign-up is still 201 and stored pending; the failure is logged without the address; a repeat re-sends", async () => {
      const down = await startSmtp();
      await down.close(); // a port where nothing listens now
      state.config = mailConfig(down.url);
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const res = await signUp("outage@example.com");
      expect(res.status).toBe(201);
      expect(await statusOf("outage@example.com")).toBe("pending");
      const lines = logged.mock.calls.map((args) => String(args[0]));
      expect(lines.some((line) => line.includes("mail.confirmation_failed"))).toBe(true);
      expect(lines.join("\n")).not.toContain("outage@example.com");
      // The server is back: the next repeat (no 10-minute wait, as nothing was sent) brings the e-mail.
      state.config = mailConfig(state.smtp.url);
      await signUp("outage@example.com");
      const [mail] = await state.smtp.waitFor("outage@example.com");
      expect((await pressButton(linkTo(mail as CapturedMail, "/waitlist/confirm"))).headers.get("location")).toEqual(
        expect.stringMatching(/^\/waitlist\/status\?token=[A-Za-z0-9_-]{43}&confirmed$/),
      );
    });
  });

  describe.skipIf(!available)("with mail off (no SMTP_URL)", () => {
    it("sign-ups are stored confirmed, with today's answer, and removal by address explains itself", async () => {
      state.config = readConfig({ RATE_LIMIT_MAX: "1000" });
      const before = state.smtp.messages.length;
      const res = await signUp("nomail@example.com");
      expect(await res.json()).toEqual({ ok: true });
      expect(await statusOf("nomail@example.com")).toBe("confirmed");
      const removal = await requestRemoval("nomail@example.com");
      expect(removal.status).toBe(503);
      expect(await removal.text()).toContain(SITE.contactEmail);
      expect(state.smtp.messages.length).toBe(before);
    });

    it.each([
      ["https://noosphere.app/", "https://noosphere.app"],
      ["https://noosphere.app/some/path", "https://noosphere.app"],
      ["noosphere.app", null],
      ["javascript:alert(1)", null],
      ["", null],
    ])("SITE_URL %j gives links the origin %j (else the request's)", (value, origin) => {
      expect(readConfig({ SITE_URL: value }).siteUrl).toBe(origin);
    });

    it("only one of the two set: mail stays off and the configuration says why", () => {
      expect(readConfig({ SMTP_URL: state.smtp.url }).mail).toBeNull();
      expect(readConfig({ SMTP_URL: state.smtp.url }).mailConfigProblem).toContain("MAIL_FROM");
      expect(readConfig({ MAIL_FROM: "a@b.test" }).mailConfigProblem).toContain("SMTP_URL");
      // A sender with a line break is refused, not sent with an empty envelope sender.
      const broken = readConfig({ SMTP_URL: state.smtp.url, MAIL_FROM: "Noosphere <a@b.test>\nBcc: x@evil.test" });
      expect(broken.mail).toBeNull();
      expect(broken.mailConfigProblem).toBe("MAIL_FROM must be one line: confirmation e-mails are off until it is.");
    });
  });
});
