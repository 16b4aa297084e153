/**
 * "Write to everyone matching" (the People page): an update given a People filter, which travels with the draft
 * as the page's address writes it (hidden fields, DraftFields), and reaches the people it matches who said yes to
 * updates (matching.ts), as `npm run waitlist -- update --answer …` does. The filter, in words, tells its updates
 * apart: the same words to another filter are another update (updates/start.ts).
 */
import type { Store } from "../../store/types";
import type { Audience } from "../../updates";
import { createMatching, filterKey } from "../people/matching";
import { isFiltered, type PeopleFilter, readPeopleQuery } from "../people/people-filter";
import { filterWords } from "../people/people-matching";

export interface UpdateSegment {
  filter: PeopleFilter;
  /** `matching Source: hn and How big is your team? 50+`. */
  words: string;
  audience: Audience;
}

/** The filter `params` carry: null when none, undefined when it is not one the People page writes. */
export async function updateSegment(store: Store, params: URLSearchParams): Promise<UpdateSegment | null | undefined> {
  // Only the filter: the update's own fields (`after`: the update sent before) are not the list's place in pages.
  const filterOnly = new URLSearchParams(params);
  for (const place of ["page", "after", "before"]) filterOnly.delete(place);
  const read = readPeopleQuery(filterOnly);
  if ("refused" in read) return undefined;
  const { filter } = read;
  if (!isFiltered(filter)) return null;
  const people = await store.of(createMatching).ids(filter, "update");
  return { filter, words: filterWords(filter), audience: { segment: filterKey(filter), people } };
}
