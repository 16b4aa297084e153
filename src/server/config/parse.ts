/**
 * Reading a setting that has a form (a number, a percentage, an address, a flag): once, in config, and never by
 * falling back to the default when the value is there but cannot be read (`RATE_LIMIT_MAX=ten` is not 10). Each
 * such value is an unreadable setting: the variable, what is wrong with the value, and what it accepts, in one line,
 * which stops the CLI and `npm start`, makes every function answer 500 (app/configured.ts) and `doctor` list it.
 * Unset or empty: the default. A helper per kind of value, beside config/index.ts, which it serves.
 */

type Env = Record<string, string | undefined>;

/** A value as people may see it: numbers and words are not secrets, but a long value is cut. */
const quoted = (value: string) => `"${value.length > 24 ? `${value.slice(0, 24)}…` : value}"`;

export interface SettingsReader {
  /** A whole number from `min` up (1 for counts and durations, 0 where 0 turns something off). */
  whole(name: string, fallback: number, min?: number): number;
  /** `whole`, or null while the variable is unset (a feature that is off until it is given a number). */
  optionalWhole(name: string, min?: number): number | null;
  /** A number from 0 to 100 (0.3, 5). */
  percent(name: string, fallback: number): number;
  /** An http(s) address, as its origin (`origin`) or whole (`url`); null while unset. */
  address(name: string, as: "origin" | "url"): string | null;
  /** One of `words`; the fallback while unset. */
  oneOf<T extends string>(name: string, words: readonly T[], fallback: T): T;
  /** Every value that could not be read, one line each, in the order read. */
  readonly unreadable: string[];
}

export function settingsReader(env: Env): SettingsReader {
  const unreadable: string[] = [];
  const given = (name: string) => env[name]?.trim() || null;
  const refuse = <T>(name: string, value: string, accepts: string, fallback: T): T => {
    unreadable.push(`${name} is ${quoted(value)}, which cannot be read: it accepts ${accepts}.`);
    return fallback;
  };
  const whole = (name: string, fallback: number, min = 1, unset: string = String(fallback)) => {
    const value = given(name);
    if (value === null) return fallback;
    if (/^\d+$/.test(value) && Number(value) >= min && Number.isSafeInteger(Number(value))) return Number(value);
    return refuse(name, value, `a whole number from ${min} up (unset: ${unset})`, fallback);
  };
  return {
    whole: (name, fallback, min) => whole(name, fallback, min),
    optionalWhole: (name, min = 1) => (given(name) === null ? null : whole(name, 0, min, "off")),
    percent(name, fallback) {
      const value = given(name);
      if (value === null) return fallback;
      const n = Number(value);
      if (/^\d+(\.\d+)?$/.test(value) && n <= 100) return n;
      return refuse(name, value, `a percentage from 0 to 100, such as 0.3 or 5 (unset: ${fallback})`, fallback);
    },
    address(name, as) {
      const value = given(name);
      if (value === null) return null;
      const url = URL.canParse(value) ? new URL(value) : null;
      if (url && (url.protocol === "https:" || url.protocol === "http:")) return as === "origin" ? url.origin : value;
      return refuse(name, value, "an https:// address", null);
    },
    oneOf(name, words, fallback) {
      const value = given(name);
      if (value === null) return fallback;
      const word = words.find((w) => w === value);
      return word ?? refuse(name, value, words.map((w) => `"${w}"`).join(" or "), fallback);
    },
    unreadable,
  };
}
