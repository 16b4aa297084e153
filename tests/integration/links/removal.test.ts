/**
 * Leaving the list: the remove link's button deletes the row and its tokens, and a removal link can be asked for
 * by address, with the same answer whether or not the address is listed, rate limited per network.
 */
import { describe, expect, it } from "vitest";
import { backends } from "../../support/backends";
import { consentHarness, linkTo, mailConfig } from "../../support/consent-harness";
import { findEntry } from "../../support/find-entry";
import type { CapturedMail } from "../../support/smtp";

describe.each(backends("removal"))("on %s", (_name, available, open) => {
  const { state, signUp, pressButton, requestRemoval } = consentHarness(available, open);

  describe.skipIf(!available)("the remove link", () => {
    it("the remove link's POST deletes the row, tokens and all; the link then no longer works", async () => {
      await signUp("leave@example.com");
      const [mail] = await state.smtp.waitFor("leave@example.com");
      const remove = linkTo(mail as CapturedMail, "/waitlist/leave");
      const res = await pressButton(remove);
      expect(res.headers.get("location")).toBe("/waitlist/removed");
      expect(await findEntry(state.store, "leave@example.com")).toBeNull();
      const rows = await state.store.db.query(
        "SELECT 1 FROM waitlist_token t LEFT JOIN waitlist w ON w.id = t.waitlist_id WHERE w.id IS NULL",
      );
      expect(rows).toEqual([]);
      expect((await pressButton(remove)).headers.get("location")).toBe("/waitlist/link-invalid");
    });
  });

  describe.skipIf(!available)("a removal link asked for by address (/waitlist/remove)", () => {
    it("answers the same whether or not the address is listed, and mails only a listed one", async () => {
      await signUp("listed@example.com");
      await state.smtp.waitFor("listed@example.com", 1);
      const listed = await requestRemoval("listed@example.com", "198.51.100.20");
      const unlisted = await requestRemoval("nobody@example.com", "198.51.100.20");
      expect([listed.status, unlisted.status]).toEqual([303, 303]);
      expect(listed.headers.get("location")).toBe("/waitlist/remove/sent");
      expect(unlisted.headers.get("location")).toBe(listed.headers.get("location"));
      const mails = await state.smtp.waitFor("listed@example.com", 2);
      const removal = mails[1] as CapturedMail;
      expect(removal.subject).toMatch(/leave/i);
      expect(state.smtp.messages.some((m) => m.to === "nobody@example.com")).toBe(false);
      expect((await pressButton(linkTo(removal, "/waitlist/leave"))).headers.get("location")).toBe("/waitlist/removed");
      expect(await findEntry(state.store, "listed@example.com")).toBeNull();
    });

    it("is rate limited per network like sign-ups; a mistyped address counts nothing", async () => {
      state.config = mailConfig(state.smtp.url, { RATE_LIMIT_MAX: "2" });
      const ip = "198.51.100.30";
      expect((await requestRemoval("not an address", ip)).status).toBe(400);
      expect((await requestRemoval("a@example.com", ip)).status).toBe(303);
      expect((await requestRemoval("b@example.com", ip)).status).toBe(303);
      const limited = await requestRemoval("c@example.com", ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      const page = await limited.text();
      expect(page).toContain("Please come back in");
      expect(page).toContain('<a href="/waitlist/remove">Back to the form</a>'); // the removal form, not /join
      // Another network is not affected.
      expect((await requestRemoval("c@example.com", "198.51.100.31")).status).toBe(303);
    });
  });
});
