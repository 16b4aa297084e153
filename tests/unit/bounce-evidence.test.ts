/** Bounce evidence names nobody (issue 48, item 5): the address, and its local part alone, become <recipient>. */
import { expect, it } from "vitest";
import { redactEvidence } from "../../src/server/suppression/evidence";

it.each([
  [
    "550 5.1.1 <alice.sealed+leak@corp.test>: Recipient address rejected: User unknown",
    "alice.sealed+leak@corp.test",
    "550 5.1.1 <recipient>: Recipient address rejected: User unknown",
  ],
  ["550 mailbox alice.sealed+leak unknown", "alice.sealed+leak@corp.test", "550 mailbox <recipient> unknown"],
  [
    "550 user ALICE.SEALED unknown (was alice@old.test)",
    "alice.sealed+leak@corp.test",
    "550 user <recipient> unknown (was <recipient>)",
  ],
  [
    "email.bounced Permanent General: The recipient's mailbox does not exist.",
    "bounce@example.com",
    "email.bounced Permanent General: The recipient's mailbox does not exist.",
  ],
  ["550 5.1.1 no such user", null, "550 5.1.1 no such user"],
  ["550 a unknown", "a@b.test", "550 a unknown"],
  ["452 4.2.2 mailbox full", "full@example.com", "452 4.2.2 mailbox full"],
])("%s → %s", (text, email, expected) => {
  expect(redactEvidence(text, email)).toBe(expected);
});
