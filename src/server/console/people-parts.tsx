/**
 * The People page's parts (people.tsx places them): the filters as a GET form (each shown as chosen, values offered
 * from the tallies with their counts), the chosen filters as chips that each take one away, and the list itself as
 * a table that becomes cards on a phone, with a checkbox per row for the bulk actions. No script: selecting a whole
 * page is a link that draws it again checked.
 */
import { ENTRY_STATUSES } from "../entry";
import { ANSWER_PARAM, type OfferedQuestion } from "../segments";
import { BREAKDOWN_FIELDS, type BreakdownField } from "../store/types";
import type { ListedEntry } from "./list";
import { CONSOLE_PATHS, consoleHref } from "./paths";
import type { OfferedValues, WaveSummary } from "./people-data";
import { NONE, type PeopleFilter, type PeopleSort, SORTS, SUPPRESSED_CHOICES, UPDATES_CHOICES } from "./people-filter";
import { STATUS_LABELS, StatusBadge } from "./ui/parts";
import { CardTable } from "./ui/table";
import { utcMinute } from "./ui/time";

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

function Choice(props: {
  id: string;
  name?: string;
  label: string;
  value: string;
  options: ReadonlyArray<readonly [string, string]>;
}) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} name={props.name ?? props.id} defaultValue={props.value}>
        {props.options.map(([value, text]) => (
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

export function FilterForm(props: {
  filter: PeopleFilter;
  sort: PeopleSort;
  offered: OfferedValues;
  /** The team's choice questions, each option with how many gave it (segments/). */
  answers: readonly OfferedQuestion[];
  filtered: boolean;
}) {
  const { filter, sort, offered } = props;
  const chosen = (field: BreakdownField) => {
    const value = filter.from[field];
    return value === undefined ? "" : (value ?? NONE);
  };
  return (
    <search aria-label="Find people">
      <form method="get" action={CONSOLE_PATHS.people}>
        <div className="filter-grid">
          <div className="wide">
            <label htmlFor="q">Search by address</label>
            <input id="q" name="q" type="search" defaultValue={filter.search} maxLength={255} />
          </div>
          <Choice
            id="status"
            label="Status"
            value={filter.status ?? ""}
            options={[["", "Any"], ...ENTRY_STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)]}
          />
          {BREAKDOWN_FIELDS.map((field) => (
            <Choice
              key={field}
              id={field}
              label={FIELD_LABELS[field]}
              value={chosen(field)}
              options={fieldOptions(field, offered, filter.from[field])}
            />
          ))}
          {props.answers.map(({ question, options }) => (
            <Choice
              key={question.id}
              id={`answer-${question.id}`}
              name={`${ANSWER_PARAM}${question.id}`}
              label={question.label}
              value={filter.answers[question.id]?.[0] ?? ""}
              options={[
                ["", "Any"],
                ...options.map((o) => [o.value, `${o.value} (${o.count.toLocaleString("en")})`] as const),
              ]}
            />
          ))}
          <Choice
            id="updates"
            label="Updates"
            value={filter.updates ?? ""}
            options={[["", "Any"], ...UPDATES_CHOICES.map((c) => [c, UPDATES_OPTIONS[c]] as const)]}
          />
          <Choice
            id="suppressed"
            label="Suppression"
            value={filter.suppressed ?? ""}
            options={[["", "Any"], ...SUPPRESSED_CHOICES.map((c) => [c, SUPPRESSED_OPTIONS[c]] as const)]}
          />
          <Choice id="sort" label="Sort" value={sort} options={SORTS.map((s) => [s, SORT_LABELS[s]] as const)} />
        </div>
        {filter.wave !== null ? <input type="hidden" name="wave" value={filter.wave} /> : null}
        <div className="row">
          <button type="submit">Show people</button>
          {props.filtered ? (
            <a className="button quiet" href={CONSOLE_PATHS.people}>
              Clear filters
            </a>
          ) : null}
        </div>
      </form>
    </search>
  );
}

const cameFrom = (r: ListedEntry) => [r.medium, r.campaign].filter(Boolean).join(" · ");

/** The list: a checkbox per row (its name says who), the person's page by their address, status as a badge. */
export function PeopleTable(props: { rows: ListedEntry[]; checked: boolean; caption: string }) {
  return (
    <CardTable className="cards people">
      <caption className="sr-only">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="pick">
            <span className="sr-only">Select</span>
          </th>
          <th scope="col">Signed up (UTC)</th>
          <th scope="col">Person</th>
          <th scope="col">Status</th>
          <th scope="col">Source</th>
          <th scope="col">Referring site</th>
          <th scope="col" className="n">
            Referrals
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.id}>
            <td className="pick">
              <label className="pick">
                <input type="checkbox" name={`select-${r.id}`} value="yes" defaultChecked={props.checked} />
                <span className="sr-only">Select {r.email}</span>
              </label>
            </td>
            <td data-label="Signed up (UTC)">{utcMinute(r.created_at)}</td>
            <td data-label="Person" className="who">
              <a href={consoleHref(CONSOLE_PATHS.person, { id: r.id })}>{r.email}</a>
              {r.name ? <span className="note">{r.name}</span> : null}
            </td>
            <td data-label="Status">
              <StatusBadge status={r.status} />
            </td>
            <td data-label="Source">
              {r.source ?? <span className="note">none</span>}
              {cameFrom(r) ? <span className="note"> · {cameFrom(r)}</span> : null}
            </td>
            <td data-label="Referring site">{r.referrer ?? <span className="note">none</span>}</td>
            <td data-label="Referrals" className="n">
              {r.referrals.toLocaleString("en")}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}
