/**
 * The chosen People filters in words (people-parts.tsx draws the form): as chips that each take one away, and as the
 * words a wave or an update by filter names its people with (people-matching.tsx), one wording for both.
 */
import { QUESTIONS, questionById } from "../../../lib/waitlist/questions";
import { BREAKDOWN_FIELDS } from "../../store/types";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { STATUS_LABELS } from "../ui/parts";
import type { WaveSummary } from "./people-data";
import { type PeopleFilter, type PeopleSort, peopleParams } from "./people-filter";
import { FIELD_LABELS, SUPPRESSED_LABELS, UPDATES_LABELS, waveName } from "./people-parts";

/** Each chosen filter in words, with the filter it leaves when taken away (the chips; a wave's or update's words). */
export function filterChips(filter: PeopleFilter, wave: WaveSummary | null) {
  const chips: Array<[string, Partial<PeopleFilter>]> = [];
  if (filter.search) chips.push([`Address: ${filter.search}`, { search: "" }]);
  if (filter.status) chips.push([`Status: ${STATUS_LABELS[filter.status]}`, { status: null }]);
  for (const field of BREAKDOWN_FIELDS) {
    const value = filter.from[field];
    if (value === undefined) continue;
    const { [field]: _gone, ...rest } = filter.from;
    chips.push([`${FIELD_LABELS[field]}: ${value ?? "none recorded"}`, { from: rest }]);
  }
  for (const [id, values] of Object.entries(filter.answers)) {
    const { [id]: _gone, ...rest } = filter.answers;
    chips.push([`${questionById(QUESTIONS, id)?.label ?? id} ${values.join(" or ")}`, { answers: rest }]);
  }
  if (filter.updates) chips.push([UPDATES_LABELS[filter.updates], { updates: null }]);
  if (filter.suppressed) chips.push([SUPPRESSED_LABELS[filter.suppressed], { suppressed: null }]);
  if (filter.wave !== null) {
    chips.push([wave ? `Invited by ${waveName(wave)}` : "Invited by a wave that does not exist", { wave: null }]);
  }
  return chips;
}

/** Each chosen filter in words, as a link to the same list without it. */
export function FilterChips(props: { filter: PeopleFilter; sort: PeopleSort; wave: WaveSummary | null }) {
  const { filter, sort } = props;
  const chips = filterChips(filter, props.wave);
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Filters in use">
      {chips.map(([text, without]) => (
        <li key={text}>
          <a href={consoleHref(CONSOLE_PATHS.people, peopleParams({ ...filter, ...without }, sort))}>
            {text}
            <span aria-hidden="true"> ×</span>
            <span className="sr-only"> (remove this filter)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
