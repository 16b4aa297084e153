/** Which built pages count their views, and the function's path as Netlify reads it (a literal) equal to the pages'. */
import { describe, expect, it } from "vitest";
import { config } from "../../netlify/functions/visits";
import { countedPage, VISIT_PATH } from "../../src/lib/visits/pages";
import { foldValue, visitKeyOf } from "../../src/server/visits/rules";

describe("counted pages", () => {
  it.each([
    ["/", "/"],
    ["/index.html", "/"],
    ["/product", "/product"],
    ["/product.html", "/product"],
    ["/terms-of-service", "/terms-of-service"],
    ["/join", "/join"],
    ["/404", "404"],
    ["/404.html", "404"],
    ["/join/thanks", null],
    ["/waitlist/status", null],
    ["/waitlist/confirm", null],
  ])("%s counts as %s", (path, page) => {
    expect(countedPage(path)).toBe(page);
  });

  it("the function answers at the path the pages report to, limited at the edge as sign-ups are", () => {
    expect(config.path).toBe(VISIT_PATH);
    expect(config.rateLimit).toEqual({ windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] });
  });
});

describe("what a view is counted under", () => {
  it.each([
    [undefined, null],
    ["  ", null],
    [" forum ", "forum"],
    ["x".repeat(100), "x".repeat(100)],
    ["x".repeat(101), "other"],
    ["two\nlines", "other"],
    ["bidi\u202eoverride", "other"],
  ])("%j is kept as %j", (given, kept) => {
    expect(foldValue(given)).toBe(kept);
  });

  it.each([
    ["https://www.news.example", "news.example.org", { referrer: "www.news.example", arrival: true }],
    ["https://www.noosphere.example", "noosphere.example", { referrer: null, arrival: false }],
    ["http://localhost:4321", "localhost", { referrer: null, arrival: false }],
    ["", "localhost", { referrer: null, arrival: true }],
    ["android-app://com.slack", "localhost", { referrer: "other", arrival: true }],
  ])("a visit from %j to %s", (referrer, site, expected) => {
    const { key, arrival } = visitKeyOf("/", "", referrer, site);
    expect({ referrer: key.referrer, arrival }).toEqual(expected);
  });

  it("reads the campaign as a sign-up does: utm_source, else ref; a share link by its code's shape", () => {
    expect(visitKeyOf("/join", "?ref=forum&utm_medium=post&utm_campaign=launch&via=ABCDEFGHJK", "", "x").key).toEqual({
      page: "/join",
      source: "forum",
      medium: "post",
      campaign: "launch",
      referrer: null,
      share: true,
    });
    expect(visitKeyOf("/nowhere", "?utm_source=a&ref=b&via=short", "", "x").key).toMatchObject({
      page: "other",
      source: "a",
      share: false,
    });
  });
});
