/**
 * A segment (src/server/segments/): `--answer ID=VALUE` pairs and the People page's `answer:ID` parameters read
 * against the questions, refused with the question and what it offers when they name something it does not ask,
 * and compiled to the JSON objects a row's `choices` must contain one of (values of one question OR'ed, different
 * questions AND'ed: multiplied out), each literal.
 */
import { describe, expect, it } from "vitest";
import { withDefaults } from "../../src/lib/waitlist/questions";
import {
  answersOf,
  checkSegment,
  containments,
  describeSegment,
  segmentMatch,
  segmentOfPairs,
} from "../../src/server/segments";
import { SEGMENT_QUESTIONS } from "../support/questions";

const QUESTIONS = withDefaults(SEGMENT_QUESTIONS);

describe("a segment from --answer pairs", () => {
  it.each<[string[], Record<string, string[]>, string[] | null]>([
    [[], {}, null],
    [["team-size=50+"], { "team-size": ["50+"] }, ['{"team-size":"50+"}']],
    [
      ["team-size=50+", "team-size=11–50"],
      { "team-size": ["11–50", "50+"] },
      ['{"team-size":"11–50"}', '{"team-size":"50+"}'],
    ],
    [["tools=Roam"], { tools: ["Roam"] }, ['{"tools":["Roam"]}']],
    [
      ["team-size=50+", "tools=Roam", "tools=Notion"],
      { "team-size": ["50+"], tools: ["Notion", "Roam"] },
      ['{"team-size":"50+","tools":["Notion"]}', '{"team-size":"50+","tools":["Roam"]}'],
    ],
    [["team-size=50+", "team-size=50+"], { "team-size": ["50+"] }, ['{"team-size":"50+"}']],
    [["team-size=Just me"], { "team-size": ["Just me"] }, ['{"team-size":"Just me"}']],
  ])("%j is %j, contained as %j", (pairs, segment, objects) => {
    const checked = segmentOfPairs(pairs, QUESTIONS);
    expect(checked).toEqual(segment);
    expect(containments(checked, QUESTIONS)).toEqual(objects);
  });

  it.each<[string[], string]>([
    [["size=50+"], 'there is no question "size" in questions.json (choice questions: team-size, tools)'],
    [["role=CTO"], '"role" is a text question: its answers are sealed, so nobody can be chosen by them'],
    [["team-size=51+"], '"51+" is not an option of "team-size" (its options: "Just me", "2–10", "11–50", "50+")'],
    [["team-size"], '--answer takes ID=VALUE, like team-size=50+; not "team-size"'],
    [["=50+"], '--answer takes ID=VALUE, like team-size=50+; not "=50+"'],
    [["tools=notion"], '"notion" is not an option of "tools" (its options: "Notion", "Obsidian", "Roam")'],
  ])("%j is refused: %s", (pairs, message) => {
    expect(() => segmentOfPairs(pairs, QUESTIONS)).toThrow(message);
  });

  it("names the file's lack of choice questions when it asks none", () => {
    expect(() => segmentOfPairs(["team-size=50+"], [])).toThrow(
      'there is no question "team-size" in questions.json (it asks no choice question)',
    );
  });

  it("refuses a segment that would multiply out past 1000 objects", () => {
    const many = withDefaults(
      ["a", "b", "c"].map((id) => ({
        id,
        label: id,
        type: "choice" as const,
        options: [...Array(11).keys()].map(String),
      })),
    );
    const all = Object.fromEntries(many.map((q) => [q.id, [...q.options]]));
    expect(() => checkSegment(all, many)).toThrow("too many answers at once: at most 1000 combinations of them");
  });

  it("says itself by the questions' labels", () => {
    const segment = segmentOfPairs(["tools=Roam", "team-size=50+", "team-size=2–10"], QUESTIONS);
    expect(describeSegment(segment, QUESTIONS)).toBe("Which tools do you use? Roam; How big is your team? 2–10 or 50+");
  });
});

describe("a segment in the People page's address", () => {
  it.each<[string, Record<string, string[]> | null]>([
    ["", {}],
    ["answer:team-size=", {}],
    ["answer:team-size=50%2B", { "team-size": ["50+"] }],
    ["answer:team-size=50%2B&answer:tools=Roam&status=confirmed", { "team-size": ["50+"], tools: ["Roam"] }],
    ["answer:team-size=51%2B", null],
    ["answer:role=CTO", null],
    ["answer:nope=x", null],
  ])("%s reads as %j", (query, segment) => {
    expect(answersOf(new URLSearchParams(query), QUESTIONS)).toEqual(segment);
  });
});

it("compiles to one condition on one parameter, which the choices index answers", () => {
  expect(segmentMatch(17)).toBe("($17::text[] IS NULL OR choices @> ANY($17::text[]::jsonb[]))");
  expect(segmentMatch(3, "w.")).toBe("($3::text[] IS NULL OR w.choices @> ANY($3::text[]::jsonb[]))");
});
