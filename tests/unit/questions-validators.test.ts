/**
 * The team's questions, checked by both validators: a table of literal cases (the words each refusal gives), and a
 * property test holding the island's validator and the function's to the same verdicts and values for generated
 * question files and answers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Question, withDefaults } from "../../src/lib/waitlist/questions";
import type { SignupInput, Validation } from "../../src/lib/waitlist/rules";
import { createValidator } from "../../src/lib/waitlist/schema";
import { validateInBrowser } from "../../src/lib/waitlist/validate";
import * as z from "../../src/lib/waitlist/zod-mini";
import { ROLE, TEAM_SIZE, TOOLS } from "../support/questions";

const QUESTIONS: Question[] = withDefaults([{ ...TEAM_SIZE, required: true }, TOOLS, { ...ROLE, max: 10 }]);
const base = { email: "ada@example.com", termsAccepted: true };

const VALIDATORS: Array<[string, (input: SignupInput) => Validation]> = [
  ["zod schema (function)", createValidator(z, QUESTIONS)],
  ["browser validator (island)", (input) => validateInBrowser(input, QUESTIONS)],
];

for (const [name, validate] of VALIDATORS) {
  describe(`${name}: the team's questions`, () => {
    const wordsOf = (answers: unknown) => {
      const result = validate({ ...base, answers });
      return result.ok ? result.value.answers : result.message;
    };
    it.each<[string, unknown, unknown]>([
      ["a required choice left out", {}, 'Please answer "How big is your team?"'],
      ["a required choice given as blanks", { "team-size": "  " }, 'Please answer "How big is your team?"'],
      ["no answers at all", undefined, 'Please answer "How big is your team?"'],
      [
        "a choice that is not an option",
        { "team-size": "9000" },
        'Please choose one of the options for "How big is your team?"',
      ],
      [
        "a choice that is not text",
        { "team-size": 50 },
        'Please choose one of the options for "How big is your team?"',
      ],
      [
        "a ticked box that is not an option",
        { "team-size": "50+", tools: ["Notion", "Excel"] },
        'Please choose one of the options for "Which tools do you use?"',
      ],
      [
        "a text answer over its max",
        { "team-size": "50+", role: "x".repeat(11) },
        'The answer to "What is your role?" must be at most 10 characters',
      ],
      [
        "a text answer on two lines",
        { "team-size": "50+", role: "a\nb" },
        'The answer to "What is your role?" must be a single line.',
      ],
      [
        "a text answer that is a number",
        { "team-size": "50+", role: 7 },
        'The answer to "What is your role?" must be text',
      ],
      ["answers that are not an object", "50+", "Answers must be sent as an object keyed by question id."],
      ["answers as a list", ["50+"], "Answers must be sent as an object keyed by question id."],
      ["the smallest good answer", { "team-size": " 50+ " }, { "team-size": "50+" }],
      [
        "every answer, trimmed, boxes in the question's order, unknown ids dropped",
        { "team-size": "2–10", tools: ["Roam", " Notion", "Roam", ""], role: " CTO ", other: "x" },
        { "team-size": "2–10", tools: ["Notion", "Roam"], role: "CTO" },
      ],
      [
        "one ticked box sent as text",
        { "team-size": "50+", tools: "Obsidian" },
        { "team-size": "50+", tools: ["Obsidian"] },
      ],
      ["optional ones left empty", { "team-size": "50+", tools: [], role: "" }, { "team-size": "50+" }],
    ])("%s", (_case, answers, expected) => {
      expect(wordsOf(answers)).toEqual(expected);
    });

    it("checks the brief's fields first: a long name is reported before a missing answer", () => {
      const result = validate({ ...base, name: "n".repeat(101) });
      expect(result.ok ? null : result.message).toBe("Name must be less than 100 characters");
    });
  });
}

describe("browser validator (island): the control a refusal marks", () => {
  it("names the question's control, answer:<id>", () => {
    const result = validateInBrowser({ ...base, answers: { "team-size": "50+", role: "a\nb" } }, QUESTIONS);
    expect(result.ok ? null : result.field).toBe("answer:role");
  });
});

describe("the two validators: the same verdicts for generated questions and answers", () => {
  const id = fc.constantFrom("team-size", "tools", "role", "a", "b-2", "constructor", "to-string");
  const option = fc.constantFrom("Just me", "2–10", "50+", "A", " A", "x y", "🧠");
  const question = fc.record(
    {
      id,
      label: fc.constantFrom("How big is your team?", "Tools?", "Role"),
      type: fc.constantFrom("choice" as const, "multiple" as const, "text" as const),
      options: fc.uniqueArray(option, { minLength: 1, maxLength: 4 }),
      required: fc.boolean(),
      max: fc.integer({ min: 1, max: 12 }),
    },
    { requiredKeys: ["id", "label", "type"] },
  );
  const questions = fc.uniqueArray(question, { maxLength: 4, selector: (q) => q.id }).map(withDefaults);
  const value = fc.oneof(
    option,
    fc.string({ maxLength: 14 }),
    fc.constantFrom("", "  ", "a\nb", "\u0000", "x".repeat(13), "🧠".repeat(12)),
    fc.array(fc.oneof(option, fc.string({ maxLength: 3 })), { maxLength: 4 }),
    fc.constantFrom(null, 3, true, ["A", 1], {}),
  );
  const answers = fc.oneof(fc.dictionary(id, value, { maxKeys: 5 }), fc.constantFrom(undefined, null, "x", ["A"], 5));
  it("agree on 3,000 generated files and sign-ups", () => {
    fc.assert(
      fc.property(questions, answers, fc.boolean(), (asked, given, longName) => {
        const input = { ...base, ...(longName ? { name: "n".repeat(101) } : {}), answers: given };
        const browser = validateInBrowser(input, asked);
        const server = createValidator(z, asked)(input);
        expect(browser).toEqual(server);
      }),
      { numRuns: 3000 },
    );
  });
});
