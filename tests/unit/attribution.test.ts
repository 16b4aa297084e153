import { describe, expect, it } from "vitest";
import { attributionOf, cleanAttribution } from "../../src/lib/waitlist/attribution";

const none = { source: null, medium: null, campaign: null, referrer: null, page: null };

describe("attributionOf: the page signed up on and document.referrer", () => {
  it.each([
    [
      "utm parameters and another site",
      "https://noosphere.app/product?utm_source=newsletter&utm_medium=email&utm_campaign=launch",
      "https://news.example.com/issues/42?secret=1",
      { source: "newsletter", medium: "email", campaign: "launch", referrer: "news.example.com", page: "/product" },
    ],
    [
      "ref when utm_source is absent",
      "https://noosphere.app/join?ref=hn",
      "",
      { ...none, source: "hn", page: "/join" },
    ],
    ["utm_source wins over ref", "https://noosphere.app/?utm_source=a&ref=b", "", { ...none, source: "a", page: "/" }],
    [
      "an empty utm_source falls back to ref",
      "https://noosphere.app/?utm_source=&ref=b",
      "",
      { ...none, source: "b", page: "/" },
    ],
    [
      "same-site navigation is no referrer",
      "https://noosphere.app/product",
      "https://noosphere.app/",
      { ...none, page: "/product" },
    ],
    ["www. is the same site", "https://www.noosphere.app/", "https://noosphere.app/x", { ...none, page: "/" }],
    [
      "a referrer that is not http(s) is none",
      "https://noosphere.app/",
      "android-app://com.example",
      { ...none, page: "/" },
    ],
    [
      "values are trimmed; a control character drops only its field",
      "https://noosphere.app/?utm_source=%20news%20&utm_medium=e%07mail",
      "",
      { ...none, source: "news", page: "/" },
    ],
    [
      "a line separator is not printable",
      "https://noosphere.app/?utm_campaign=a%E2%80%A8b",
      "",
      { ...none, page: "/" },
    ],
    ["101 characters are too many", `https://noosphere.app/?utm_source=${"s".repeat(101)}`, "", { ...none, page: "/" }],
    [
      "100 are fine",
      `https://noosphere.app/?utm_source=${"s".repeat(100)}`,
      "",
      { ...none, source: "s".repeat(100), page: "/" },
    ],
    ["no page at all", "not a url", "https://news.example.com/", none],
  ])("%s", (_case, page, referrer, expected) => {
    expect(attributionOf(page, referrer)).toEqual(expected);
  });
});

describe("cleanAttribution: whatever a client sent", () => {
  it.each([
    ["not an object", "newsletter", none],
    ["null", null, none],
    [
      "every field valid",
      { source: "x", medium: "y", campaign: "z", referrer: "news.example.com", page: "/product" },
      { source: "x", medium: "y", campaign: "z", referrer: "news.example.com", page: "/product" },
    ],
    ["a referrer with a path", { referrer: "news.example.com/x" }, none],
    ["a referrer with upper case", { referrer: "News.example.com" }, none],
    ["a page that is not a path", { page: "https://evil.example/" }, none],
    ["a page with a query", { page: "/join?utm_source=x" }, none],
    ["a number", { source: 42 }, none],
    ["a bidi override", { source: "abc\u202Edef" }, none],
    ["a zero-width space", { campaign: "a\u200Bb" }, none],
    ["an astral character counts once", { source: "😀".repeat(100) }, { ...none, source: "😀".repeat(100) }],
  ])("%s", (_case, input, expected) => {
    expect(cleanAttribution(input)).toEqual(expected);
  });
});
