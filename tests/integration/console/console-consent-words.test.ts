/**
 * What a person agreed to, in the words the console shows (src/server/console/person/consent-words.ts): the terms by their
 * date, never their hash, and the current terms always dated (a new version fails here until it is); the updates
 * choice by how it was made, for every way a choice is recorded.
 */
import { expect, it } from "vitest";
import {
  TERMS_DATES,
  termsAgreed,
  UNSUBSCRIBE_PAGE_VERSION,
  updatesChoice,
  updatesStep,
} from "../../../src/server/console/person/consent-words";
import { TERMS_VERSION } from "../../../src/server/terms-version";
import { ONE_CLICK, UPDATES_WORDS, UPDATES_WORDS_VERSION } from "../../../src/server/updates";
import { UNSUBSCRIBE_PAGE_WORDS } from "../../../src/server/updates/handler";

it("names the terms by their date, the current version included", () => {
  expect(Object.keys(TERMS_DATES)).toContain(TERMS_VERSION);
  expect(termsAgreed(TERMS_VERSION)).toBe("The Terms of Service of November 29, 2026");
  // Earlier versions keep their dates: people who agreed to them are named by what they saw.
  expect(termsAgreed("2d81b8fd62c70c2e")).toBe("The Terms of Service of November 22, 2026");
  expect(termsAgreed("0000000000000000")).toBe("A version of the Terms of Service that this console has no date for");
  expect(termsAgreed(null)).toBe("Not recorded (they signed up before the terms were kept with each sign-up)");
});

it("says how the updates choice was made, in words, for every way it is recorded", () => {
  // The unsubscribe page's words are recognised as the updates' handler records them.
  expect(UNSUBSCRIBE_PAGE_VERSION).toBe(UNSUBSCRIBE_PAGE_WORDS);
  expect(updatesChoice(null, null)).toEqual({
    answer: null,
    how: "Not asked yet: they are asked on their status page once they confirm",
    words: null,
  });
  expect(updatesChoice(true, UPDATES_WORDS_VERSION)).toEqual({
    answer: "Yes",
    how: "on their status page, to these words:",
    words: UPDATES_WORDS,
  });
  expect(updatesChoice(true, "updates-v0")).toEqual({ answer: "Yes", how: "", words: null });
  const stopped: Array<[string | null, string, string]> = [
    [UPDATES_WORDS_VERSION, "on their status page", "Said no to updates, on their status page"],
    [
      UNSUBSCRIBE_PAGE_WORDS,
      "from an update's unsubscribe page",
      "Said no to updates, from an update's unsubscribe page",
    ],
    [
      ONE_CLICK,
      "with their mail app's one-click unsubscribe",
      "Said no to updates, with their mail app's one-click unsubscribe",
    ],
    [
      "withdrawn: a spam complaint (ses)",
      "they marked an e-mail as spam (reported by ses)",
      "Updates stopped: they marked an e-mail as spam (reported by ses)",
    ],
    [null, "", "Said no to updates"],
  ];
  for (const [recorded, how, step] of stopped) {
    expect(updatesChoice(false, recorded)).toEqual({ answer: "No", how, words: null });
    expect(updatesStep(false, recorded)).toBe(step);
  }
  expect(updatesStep(true, UPDATES_WORDS_VERSION)).toBe("Said yes to updates");
});
