/** A count and its noun, in plain words: "1 row", "3 rows", "12,000 people" (never "row(s)"). */
export const counted = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The verb for a count: "is" for one, "are" for any other number. */
export const isAre = (n: number): string => (n === 1 ? "is" : "are");
