/**
 * The People page's parts (people.tsx places them): the search and the filters as a GET form (each filter shown as
 * chosen, values offered from the tallies with their counts, all behind a "Filters" disclosure on a phone). The
 * chips are people-chips.tsx's, the list people-table.tsx's.
 */
import { ENTRY_STATUSES } from "../../entry";
import { ANSWER_PARAM, type OfferedQuestion } from "../../segments";
import { BREAKDOWN_FIELDS, type BreakdownField } from "../../store/types";
import { CONSOLE_PATHS } from "../paths";
import { STATUS_LABELS } from "../ui/parts";
import { utcMinute } from "../ui/time";
import type { OfferedValues, WaveSummary } from "./people-data";
import { NONE, type PeopleFilter, type PeopleSort, SORTS, SUPPRESSED_CHOICES, UPDATES_CHOICES } from "./people-filter";

export const FIELD_LABELS: Record<BreakdownField, string> = {
  source: "Source",
  medium: "Medium",
  campaign: "Campaign",
  referrer: "Referring site",
};
/** Each choice as its chip says it, and (short enough for half a phone's width) as its option. */
export const UPDATES_LABELS = {
  yes: "Said yes to updates",
  no: "Said no to updates",
  never: "Never asked about updates",
};
const UPDATES_OPTIONS = { yes: "Said yes", no: "Said no", never: "Never asked" };
export const SUPPRESSED_LABELS = { yes: "On the suppression list", no: "Not on the suppression list" };
const SUPPRESSED_OPTIONS = { yes: "Suppressed", no: "Not suppressed" };
export const SORT_LABELS: Record<PeopleSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  referrals: "Most referrals first",
};

const day = (iso: string) => `${utcMinute(iso)} UTC`;

/** A wave as the list names it: when it started and what it did, never its number. */
export const waveName = (wave: WaveSummary) => `the wave of ${day(wave.startedAt)}`;

/** One filter of the form: a select by its name in the address, its label, the value chosen, its options. */
export interface FilterField {
  id: string;
  /** Its name in the address, when not its id (an answer's: `answer:<question>`). */
  name?: string;
  label: string;
  value: string;
  options: ReadonlyArray<readonly [value: string, text: string]>;
}

function Choice({ field }: { field: FilterField }) {
  return (
    <div>
      <label htmlFor={field.id}>{field.label}</label>
      <select id={field.id} name={field.name ?? field.id} defaultValue={field.value}>
        {field.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A source field's options: any, none recorded, its most common values, and the chosen one if it is rarer. */
function fieldOptions(field: BreakdownField, offered: OfferedValues, chosen: string | null | undefined) {
  const options: Array<readonly [string, string]> = [
    ["", "Any"],
    [NONE, "None recorded"],
    ...offered[field].map(({ value, count }) => [value, `${value} (${count.toLocaleString("en")})`] as const),
  ];
  if (typeof chosen === "string" && !offered[field].some((v) => v.value === chosen)) options.push([chosen, chosen]);
  return options;
}

/**
 * The filters the form offers, in their order: status, each source field, each choice question of the team's (its
 * options with how many gave each), the updates choice, the suppression list. The form draws them in a loop, so a
 * new filter is one more entry here (and its reading in people-filter.ts).
 */
export function filterFields(
  filter: PeopleFilter,
  offered: OfferedValues,
  answers: readonly OfferedQuestion[] = [],
): FilterField[] {
  const any = (choices: ReadonlyArray<readonly [string, string]>) => [["", "Any"] as const, ...choices];
  return [
    {
      id: "status",
      label: "Status",
      value: filter.status ?? "",
      options: any(ENTRY_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)),
    },
    ...BREAKDOWN_FIELDS.map((field) => {
      const value = filter.from[field];
      return {
        id: field,
        label: FIELD_LABELS[field],
        value: value === undefined ? "" : (value ?? NONE),
        options: fieldOptions(field, offered, value),
      };
    }),
    ...answers.map(({ question, options }) => ({
      id: `answer-${question.id}`,
      name: `${ANSWER_PARAM}${question.id}`,
      label: question.label,
      value: filter.answers[question.id]?.[0] ?? "",
      options: [
        ["", "Any"] as const,
        ...options.map((o) => [o.value, `${o.value} (${o.count.toLocaleString("en")})`] as const),
      ],
    })),
    {
      id: "updates",
      label: "Updates",
      value: filter.updates ?? "",
      options: any(UPDATES_CHOICES.map((c) => [c, UPDATES_OPTIONS[c]] as const)),
    },
    {
      id: "suppressed",
      label: "Suppression",
      value: filter.suppressed ?? "",
      options: any(SUPPRESSED_CHOICES.map((c) => [c, SUPPRESSED_OPTIONS[c]] as const)),
    },
  ];
}

/**
 * The search, then the filters and the order behind a "Filters" disclosure (no script: <details>), which says how
 * many are in use: on a phone the list follows right after; from 641 px wide the stylesheet shows them open.
 */
export function FilterForm(props: {
  filter: PeopleFilter;
  sort: PeopleSort;
  offered: OfferedValues;
  /** The team's choice questions, each option with how many gave it (segments/). */
  answers: readonly OfferedQuestion[];
  filtered: boolean;
}) {
  const { filter, sort } = props;
  const fields = filterFields(filter, props.offered, props.answers);
  const inUse = fields.filter((field) => field.value !== "").length;
  const order: FilterField = {
    id: "sort",
    label: "Sort",
    value: sort,
    options: SORTS.map((s) => [s, SORT_LABELS[s]] as const),
  };
  return (
    <search aria-label="Find people">
      <form method="get" action={CONSOLE_PATHS.people} className="people-find">
        <div className="find-line">
          <div>
            <label htmlFor="q">Search by address</label>
            <input id="q" name="q" type="search" defaultValue={filter.search} maxLength={255} />
          </div>
          <button type="submit">Search</button>
        </div>
        <details className="filters">
          <summary>{inUse > 0 ? `Filters (${inUse} in use)` : "Filters"}</summary>
          <div className="filter-grid">
            {[...fields, order].map((field) => (
              <Choice key={field.id} field={field} />
            ))}
          </div>
          <div className="row">
            <button type="submit">Show people</button>
            {props.filtered ? (
              <a className="button quiet" href={CONSOLE_PATHS.people}>
                Clear filters
              </a>
            ) : null}
          </div>
        </details>
        {filter.wave !== null ? <input type="hidden" name="wave" value={filter.wave} /> : null}
      </form>
    </search>
  );
}
