/** src/content/questions.json as the build checks it: a table of literal bad files and the error each gives. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkQuestions, RESERVED_IDS } from "../../src/lib/waitlist/questions-file";
import { csvColumns } from "../../src/server/export/rows";

const TEAM = { id: "team-size", label: "How big is your team?", type: "choice", options: ["Just me", "50+"] };
const F = "src/content/questions.json";

describe("questions.json, checked at build", () => {
  it.each<[string, unknown, string]>([
    ["not a list", { questions: [] }, `${F}: must be a list of questions ([] for none)`],
    [
      "eleven questions",
      Array.from({ length: 11 }, (_, i) => ({ ...TEAM, id: `q-${i}` })),
      `${F}: at most 10 questions (it has 11)`,
    ],
    [
      "a duplicate id",
      [TEAM, { ...TEAM, label: "Again?" }],
      `${F}: question 2: id "team-size" is already used by question 1`,
    ],
    [
      "an id with capitals",
      [{ ...TEAM, id: "Team_Size" }],
      `${F}: question 1 ("Team_Size"): id: id must be lowercase letters, digits and single hyphens (a-z0-9-), like team-size`,
    ],
    [
      "an id the export uses",
      [{ ...TEAM, id: "email" }],
      `${F}: question 1 ("email"): id: id is the name of one of the export's own columns: choose another`,
    ],
    ["an id missing", [{ label: "Hi?", type: "text" }], `${F}: question 1: id: id must be text`],
    [
      "a choice without options",
      [{ ...TEAM, options: [] }],
      `${F}: question 1 ("team-size"): a choice question needs options`,
    ],
    [
      "a multiple without options key",
      [{ id: "tools", label: "Tools?", type: "multiple" }],
      `${F}: question 1 ("tools"): a multiple question needs options`,
    ],
    [
      "an option twice",
      [{ ...TEAM, options: ["A", "B", "A"] }],
      `${F}: question 1 ("team-size"): option "A" is listed twice`,
    ],
    [
      "a text question with options",
      [{ id: "role", label: "Role?", type: "text", options: ["a"] }],
      `${F}: question 1 ("role"): a text question has no options`,
    ],
    [
      "an unknown type",
      [{ ...TEAM, type: "dropdown" }],
      `${F}: question 1 ("team-size"): type: type must be one of choice, multiple, text`,
    ],
    ["an empty label", [{ ...TEAM, label: "  " }], `${F}: question 1 ("team-size"): label: label must not be empty`],
    [
      "a label on two lines",
      [{ ...TEAM, label: "How\nbig?" }],
      `${F}: question 1 ("team-size"): label: label must be one line of plain text`,
    ],
    [
      "required as text",
      [{ ...TEAM, required: "yes" }],
      `${F}: question 1 ("team-size"): required: required must be true or false`,
    ],
    ["an unknown key", [{ ...TEAM, optional: true }], `${F}: question 1 ("team-size"): unknown key optional`],
    ["max on a choice", [{ ...TEAM, max: 20 }], `${F}: question 1 ("team-size"): a choice question has no max`],
    [
      "a max of 0",
      [{ id: "role", label: "Role?", type: "text", max: 0 }],
      `${F}: question 1 ("role"): max: max must be at least 1`,
    ],
    ["a question that is text", ["How big?"], `${F}: question 1: must be an object with id, label and type`],
  ])("%s", (_case, file, message) => {
    expect(() => checkQuestions(file)).toThrow(message);
    try {
      checkQuestions(file);
    } catch (error) {
      expect((error as Error).message).toBe(message);
    }
  });

  it("fills the defaults in: not required, text up to 200 characters, no options", () => {
    expect(checkQuestions([TEAM, { id: "role", label: " Role? ", type: "text", hint: "Your title" }])).toEqual([
      { ...TEAM, required: false, max: 200 },
      { id: "role", label: "Role?", type: "text", options: [], required: false, hint: "Your title", max: 200 },
    ]);
  });

  it("holds the project's own file good (the default: no questions)", () => {
    expect(checkQuestions(JSON.parse(readFileSync(F, "utf8")))).toEqual([]);
  });

  it("reserves every name the export gives its own columns", () => {
    expect([...RESERVED_IDS].sort()).toEqual([...csvColumns([]), "answers_no_longer_asked", "answers"].sort());
  });
});
