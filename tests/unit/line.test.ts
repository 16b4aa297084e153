/**
 * The line's rule (src/server/store/line.ts), worked out two ways: a place counted without sorting (the status
 * page's) and the head of the line merged (the waves'), each held to the plain definition, a sort of everyone.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { before, headOfLine, type InLine, lineWindow, placeInLine } from "../../src/server/store/line";

/** The definition itself: everyone sorted by line number, a moved person first on a tie, then sign-up place. */
const sorted = (people: InLine[], places: number) =>
  [...people].sort((a, b) => (before(a, b, places) ? -1 : before(b, a, places) ? 1 : 0));

/** People 1…n in sign-up order, with the given referrals. */
const line = (referrals: number[]): InLine[] => referrals.map((r, i) => ({ id: 100 + i, b: i + 1, referrals: r }));

describe("a place, as people read it", () => {
  it.each([
    // [referrals of people 1…6, REFERRAL_PLACES, the 6th person's place]
    [[0, 0, 0, 0, 0, 1], 0, 6],
    [[0, 0, 0, 0, 0, 1], 1, 5],
    [[0, 0, 0, 0, 0, 2], 1, 4],
    [[0, 0, 0, 0, 0, 1], 1000, 1],
    // Line numbers, not jumps: the 5th stands at 4 (before the 4th, who signed up there), the 6th at 5, behind the
    // 4th's sign-up place 4: still 6th.
    [[0, 0, 0, 0, 1, 1], 1, 6],
    [[3, 0, 0, 0, 0, 1], 1000, 2], // two moved to the front: the earlier sign-up first
  ])("referrals %j, %i places each: the last is %i", (referrals, places, expected) => {
    const people = line(referrals);
    const last = people[people.length - 1] as InLine;
    const movers = people.filter((p) => p.referrals > 0);
    expect(placeInLine(last, movers, places)).toBe(expected);
  });
});

describe("the rule, counted or merged, is the sort", () => {
  const arbitrary = fc.record({
    referrals: fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 4 })), {
      minLength: 1,
      maxLength: 40,
    }),
    places: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 }), fc.constant(1000)),
    limit: fc.integer({ min: 1, max: 45 }),
  });

  it("every person's counted place is their index in the sorted line", () => {
    fc.assert(
      fc.property(arbitrary, ({ referrals, places }) => {
        const people = line(referrals);
        const movers = people.filter((p) => p.referrals > 0);
        const order = sorted(people, places).map((p) => p.id);
        for (const person of people) {
          expect(placeInLine(person, movers, places)).toBe(order.indexOf(person.id) + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the moved people of the person's window alone give the same place (what the status page reads)", () => {
    fc.assert(
      fc.property(arbitrary, ({ referrals, places }) => {
        const people = line(referrals);
        const movers = people.filter((p) => p.referrals > 0);
        const most = Math.max(0, ...movers.map((m) => m.referrals));
        const order = sorted(people, places).map((p) => p.id);
        for (const person of people) {
          const { from, to } = lineWindow(person, places, most);
          const inWindow = movers.filter((m) => m.b >= from && m.b <= to);
          expect(placeInLine(person, inWindow, places)).toBe(order.indexOf(person.id) + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the head merged from sign-up order and the movers is the sorted line's head", () => {
    fc.assert(
      fc.property(arbitrary, ({ referrals, places, limit }) => {
        const people = line(referrals);
        const movers = people.filter((p) => p.referrals > 0);
        const head = people.slice(0, limit + movers.length);
        expect(headOfLine(head, movers, places, limit).map((p) => p.id)).toEqual(
          sorted(people, places)
            .slice(0, limit)
            .map((p) => p.id),
        );
      }),
      { numRuns: 300 },
    );
  });
});
