/**
 * Each e-mail's words are true for the person who receives it (issue 31, item 12): an invitation says "you
 * confirmed your address" only to someone who did, by its link; someone stored while e-mail was off, invited once
 * it is on, reads that the address joined the list. On every backend, through a real SMTP server.
 */
import { describe, expect, it } from "vitest";
import { backends, useBackend } from "../../support/backends";
import { inviteByMail } from "../../support/invitations-harness";

describe.each(backends("invitation_words"))("%s", (_name, available, open) => {
  const backend = useBackend(available, open);

  it.skipIf(!available)("only a person who confirmed by link is told so", async () => {
    const { store } = backend;
    // Stored while e-mail was off: confirmed at once, never by a link.
    expect(await store.add({ name: null, email: "offline@example.com", message: null }, "confirmed")).toBe(true);
    // Signed up with e-mail on, then confirmed by the link.
    expect(await store.add({ name: null, email: "linked@example.com", message: null }, "pending")).toBe(true);
    await store.db.query(
      "UPDATE waitlist SET status = 'confirmed', confirmed_at = now() WHERE email = 'linked@example.com'",
    );
    const { report, mails } = await inviteByMail(store, 2);
    expect(report.invited).toBe(2);
    const offline = mails.find((mail) => mail.to === "offline@example.com");
    const linked = mails.find((mail) => mail.to === "linked@example.com");
    expect(offline?.text).toContain("You are receiving this because this address joined the Noosphere waitlist.");
    expect(offline?.text).not.toContain("confirmed");
    expect(linked?.text).toContain(
      "You are receiving this because you joined the Noosphere waitlist and confirmed your address.",
    );
  });
});
