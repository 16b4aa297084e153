/**
 * Purging pending sign-ups: a dry run counts, `apply` deletes only old pending rows, and never one whose
 * confirmation link still works, whatever the age asked for.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { backends } from "../../support/backends";
import { consentHarness, mailConfig } from "../../support/consent-harness";

describe.each(backends("purge"))("on %s", (_name, available, open) => {
  const { state, signUp, statusOf } = consentHarness(available, open);

  beforeAll(async () => {
    if (!available) return;
    // A confirmed sign-up, to show the purge leaves confirmed rows alone.
    state.config = mailConfig(state.smtp.url);
    await state.store.add({ name: null, email: "ada@example.com", message: null }, "confirmed");
  });

  /** Signs `email` up, its confirmation mailed, and dates the sign-up and that e-mail `days` ago. */
  async function signedUpDaysAgo(email: string, days: number) {
    await signUp(email);
    await state.smtp.waitFor(email);
    await state.store.db.query(
      "UPDATE waitlist SET created_at = now() - make_interval(days => $2), confirmation_sent_at = now() - make_interval(days => $2) WHERE email = $1",
      [email, days],
    );
  }

  describe.skipIf(!available)("purging pending sign-ups", () => {
    it("counts without deleting on a dry run, deletes only old pending rows with apply", async () => {
      state.config = mailConfig(state.smtp.url);
      await signedUpDaysAgo("stale@example.com", 15);
      // Its link was sent with the e-mail, 15 days ago: it expired after 7.
      await state.store.db.query(
        "UPDATE waitlist_token SET expires_at = now() - interval '8 days' WHERE waitlist_id = (SELECT id FROM waitlist WHERE email = 'stale@example.com')",
      );
      // A confirmed row just as old stays.
      await state.store.db.query(
        "UPDATE waitlist SET created_at = now() - interval '30 days' WHERE email = 'ada@example.com'",
      );
      const dry = await state.store.purgePending(14 * 24, false);
      expect(dry).toEqual({ matched: 1, purged: 0 });
      expect(await statusOf("stale@example.com")).toBe("pending");
      expect(await state.store.purgePending(14 * 24, true)).toEqual({ matched: 1, purged: 1 });
      expect(await statusOf("stale@example.com")).toBeNull();
      expect(await statusOf("ada@example.com")).toBe("confirmed");
    });

    it("never deletes a pending sign-up whose confirmation link still works, whatever the age asked for", async () => {
      state.config = mailConfig(state.smtp.url);
      await signedUpDaysAgo("waiting@example.com", 3);
      expect(await state.store.purgePending(24, true)).toEqual({ matched: 0, purged: 0 });
      expect(await statusOf("waiting@example.com")).toBe("pending");
    });
  });
});
