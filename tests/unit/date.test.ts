import { describe, expect, it } from "vitest";
import { longDate } from "../../src/lib/date";

const DAYS = ["2026-01-01", "2026-02-28", "2024-02-29", "2026-11-23", "2026-12-31", "1999-07-04", "2031-09-09"];

describe("longDate writes what toLocaleDateString('en-US') writes, without Intl", () => {
  it.each(DAYS)("%s, in UTC", (day) => {
    const date = new Date(`${day}T12:00:00Z`);
    const options = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;
    expect(longDate(date, true)).toEqual({ text: date.toLocaleDateString("en-US", options), iso: day });
  });

  it.each(DAYS)("%s, in the local time zone", (day) => {
    const date = new Date(`${day}T00:30:00`);
    const options = { year: "numeric", month: "long", day: "numeric" } as const;
    expect(longDate(date)).toEqual({ text: date.toLocaleDateString("en-US", options), iso: day });
  });
});
