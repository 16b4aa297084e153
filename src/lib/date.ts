/**
 * "November 23, 2026", as `toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" })`
 * writes it, without Intl: the first Intl call of a page loads the engine's locale data, a long task on a phone
 * that the terms page would pay for one date. A test holds the two equal.
 */
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** The date in words and as YYYY-MM-DD, in the visitor's time zone or (`utc`) in UTC. */
export function longDate(date: Date, utc = false): { text: string; iso: string } {
  const [year, month, day] = utc
    ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()]
    : [date.getFullYear(), date.getMonth(), date.getDate()];
  const pad = (n: number) => String(n).padStart(2, "0");
  return { text: `${MONTHS[month]} ${day}, ${year}`, iso: `${year}-${pad(month + 1)}-${pad(day)}` };
}
