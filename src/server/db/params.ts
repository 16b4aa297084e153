/**
 * A statement's parameters by name, so no `$n` is counted by hand: the text asks `p.$("email", "text")` for each
 * value (a name asked again gets the same number), and a call lists its values with `p.values({ email, … })`, in
 * the order the text first asked for them. Names given at the start (`taken`) keep $1, $2, … for a fragment that
 * writes its own (store/allowance.ts: RATE_PARAMS).
 */
export interface Params<Name extends string = string> {
  /** `$n` of parameter `name`, with `::cast` when given. */
  $(name: Name, cast?: string): string;
  /** A call's values, in their parameters' order; a name the text asked for and `given` lacks is an error. */
  values(given: Readonly<Partial<Record<Name, unknown>>>): unknown[];
}

export function namedParams<Name extends string = string>(taken: readonly Name[] = []): Params<Name> {
  const names: Name[] = [...taken];
  const casts = new Map<Name, string>();
  return {
    $(name, cast) {
      if (!names.includes(name)) names.push(name);
      // One name for two values (a column and a flag both called `sealed`) would send one value for both.
      if (cast && (casts.get(name) ?? cast) !== cast)
        throw new Error(`Parameter "${name}" cast as ${casts.get(name)} and ${cast}`);
      if (cast) casts.set(name, cast);
      return `$${names.indexOf(name) + 1}${cast ? `::${cast}` : ""}`;
    },
    values(given) {
      return names.map((name) => {
        if (!Object.hasOwn(given, name)) throw new Error(`No value for the statement's parameter "${name}"`);
        return given[name];
      });
    },
  };
}
