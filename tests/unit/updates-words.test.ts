/** The words beside the updates choice and the version each person's record keeps of them. */
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { UPDATES_WORDS, UPDATES_WORDS_VERSION } from "../../src/server/updates/consent";

it("the words' version is the hash of the words the status page shows (change both together)", () => {
  expect(UPDATES_WORDS).toBe(
    "Occasional e-mails from the Noosphere team while you wait: what we are building, and when the next people are let in. A few a year, no tracking, and every one has a link to stop them.",
  );
  expect(UPDATES_WORDS_VERSION).toBe(createHash("sha256").update(UPDATES_WORDS).digest("hex").slice(0, 16));
  expect(UPDATES_WORDS_VERSION).toBe("2e1a39c2c8aee653");
});
