/**
 * The People page (GET /admin/people): a list made for finding people. Filters and the order come from the address
 * (people-filter.ts), so a filtered list is a link to keep or share (a finished wave links to `?wave=N`); the list
 * reads one page along an index whatever is chosen (list.ts); rows are chosen by checkboxes for Invite selected and
 * Remove selected, which each ask first (people-bulk.tsx). What an action did is said from the database (the wave's
 * row, the removal's audit entry), never from a number in the address.
 */
import { counted } from "../../../lib/plural";
import type { ServerConfig } from "../../config";
import { seeOther } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import type { Store } from "../../store/types";
import { CONSOLE_PATHS, consoleHref, message, page } from "../pages";
import { Section } from "../ui/parts";
import { createConsoleList, type ListedPage, MATCH_CAP, PER_PAGE } from "./list";
import { createMatching } from "./matching";
import { FilterChips } from "./people-chips";
import { peopleData } from "./people-data";
import {
  isFiltered,
  MAX_PAGE,
  type PeopleQuery,
  type PeopleSort,
  peopleParams,
  REFUSED,
  readPeopleQuery,
} from "./people-filter";
import { MatchingActions } from "./people-matching";
import { listNote, noticeOf } from "./people-notes";
import { FilterForm, SORT_LABELS } from "./people-parts";
import { PeopleTable } from "./people-table";

export interface PeopleVisit {
  store: Store;
  config: ServerConfig;
  admin: string;
  url: URL;
}

/** The address of the list as it is now: filters, order and where the page starts. */
export function listParams(query: Pick<PeopleQuery, "filter" | "sort" | "position">): Record<string, string> {
  const { position } = query;
  const at: Record<string, string> =
    position.kind === "page"
      ? position.page > 1
        ? { page: String(position.page) }
        : {}
      : { [position.kind]: position.cursor, ...(position.page ? { page: String(position.page) } : {}) };
  return { ...peopleParams(query.filter, query.sort), ...at };
}

/** Each way the list goes on, named for its order (Older and Newer by date, Previous and Next by referrals). */
const PAGER: Record<PeopleSort, [before: string, after: string]> = {
  newest: ["Newer", "Older"],
  oldest: ["Older", "Newer"],
  referrals: ["Previous", "Next"],
};

function Pager(props: { query: PeopleQuery; list: ListedPage; pages: number | null }) {
  const { query, list } = props;
  const { rows } = list;
  const at = query.position.page;
  const near = (step: number) => (at === null || at + step < 1 || at + step > MAX_PAGE ? undefined : at + step);
  const link = (kind: "before" | "after", cursor: string, step: number) =>
    consoleHref(CONSOLE_PATHS.people, { ...peopleParams(query.filter, query.sort), [kind]: cursor, page: near(step) });
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const [before, after] = PAGER[query.sort];
  const hidden = Object.entries(peopleParams(query.filter, query.sort));
  return (
    <>
      {(list.before && first) || (list.after && last) ? (
        <nav className="pages" aria-label="Pages">
          {list.before && first ? (
            <a href={link("before", first.cursor, -1)} rel="prev">
              {before}
            </a>
          ) : null}
          {list.after && last ? (
            <a href={link("after", last.cursor, 1)} rel="next">
              {after}
            </a>
          ) : null}
        </nav>
      ) : null}
      {props.pages === null || props.pages > 1 ? (
        <form method="get" action={CONSOLE_PATHS.people} className="row">
          {hidden.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div>
            <label htmlFor="page">Go to page</label>
            <input
              id="page"
              name="page"
              type="number"
              min={1}
              max={Math.min(props.pages ?? MAX_PAGE, MAX_PAGE)}
              inputMode="numeric"
              required
            />
          </div>
          <button type="submit" className="quiet">
            Go
          </button>
        </form>
      ) : null}
    </>
  );
}

export async function peopleGet({ store, config, admin, url }: PeopleVisit): Promise<Response> {
  const query = readPeopleQuery(url.searchParams);
  if ("refused" in query) {
    const { title, text } = REFUSED[query.refused];
    return message(400, title, text, admin);
  }
  // A filter form sends every field, chosen or not: its answer is the same list at its shortest address, to keep or
  // to share (the one every link of the page writes).
  const given = url.searchParams;
  const keep = {
    select: given.get("select") === "all" ? "all" : undefined,
    done: given.get("done") === "invited" ? "invited" : undefined,
    removed: /^\d{1,15}$/.test(given.get("removed") ?? "") ? (given.get("removed") ?? undefined) : undefined,
  };
  const canonical = consoleHref(CONSOLE_PATHS.people, { ...listParams(query), ...keep });
  if (canonical !== consoleHref(CONSOLE_PATHS.people, Object.fromEntries(given))) return seeOther(canonical);
  const { filter, sort, position } = query;
  const filtered = isFiltered(filter);
  const list = createConsoleList(store.db, store.dataKeys);
  const data = peopleData(store.db, store.dataKeys);
  const removedId = keep.removed === undefined ? null : Number(keep.removed);
  /** How many match: the tallies' total unfiltered; a first page that holds them all is its own count. */
  const matching = async (shown: ListedPage) => {
    if (!filtered) return { count: await store.count(), capped: false };
    if (position.kind === "page" && position.page === 1 && !shown.after)
      return { count: shown.rows.length, capped: false };
    return list.matching(filter);
  };
  const load = async (shown: ListedPage) => ({
    list: shown,
    matching: await matching(shown),
    how: filter.search ? await list.partSearch() : null,
    offered: await data.values(),
    wave: filter.wave === null ? null : await data.wave(filter.wave),
    removed: removedId === null ? null : await data.removed(removedId),
    answers: await data.answers(),
    invitable: filtered
      ? (await createMatching(store.db, store.dataKeys, list).ids(filter, "invite", MATCH_CAP + 1)).length
      : 0,
  });
  const d = await withTimeout(list.page(filter, position, sort).then(load), config.dbTimeoutMs * 2);
  const pages = d.matching.capped ? null : Math.max(1, Math.ceil(d.matching.count / PER_PAGE));
  const many = d.matching.capped
    ? `More than ${counted(MATCH_CAP, "person", "people")}`
    : counted(d.matching.count, "person", "people");
  const heading = filtered ? (d.matching.count === 0 ? "Nobody matches" : `${many} match`) : many;
  const empty = filter.search
    ? "No address matches."
    : filtered
      ? "Nobody matches these filters."
      : position.page !== null && position.page > 1
        ? "Nobody on this page."
        : "No sign-ups yet.";
  const here = listParams(query);
  const selectHref = consoleHref(CONSOLE_PATHS.people, { ...here, select: query.selectAll ? undefined : "all" });
  return page(
    200,
    "People",
    <>
      <h1>People</h1>
      {noticeOf(url.searchParams, d.wave, d.removed)}
      <Section id="find" title="Find people">
        <FilterForm
          filter={filter}
          sort={sort}
          offered={d.offered}
          answers={d.answers}
          filtered={filtered || sort !== "newest"}
        />
      </Section>
      <Section id="found" title={heading}>
        <FilterChips filter={filter} sort={sort} wave={d.wave} />
        <p className="note">{listNote(sort, position.page, pages, filter.search, d.how)}</p>
        {filtered && d.list.rows.length > 0 ? (
          <MatchingActions filter={filter} invitable={d.invitable} mail={config.mail !== null} />
        ) : null}
        {d.list.rows.length > 0 ? (
          <form method="post" action={CONSOLE_PATHS.peopleBulk}>
            <input type="hidden" name="back" value={new URLSearchParams(here).toString()} />
            <div className="bulk">
              <button type="submit" name="action" value="invite" className="quiet">
                Invite selected
              </button>
              <button type="submit" name="action" value="remove" className="quiet">
                Remove selected
              </button>
              <a href={selectHref}>
                {query.selectAll ? "Clear the selection" : `Select all ${d.list.rows.length} on this page`}
              </a>
            </div>
            <PeopleTable
              rows={d.list.rows}
              checked={query.selectAll}
              caption={`People, ${SORT_LABELS[sort].toLowerCase()}`}
            />
          </form>
        ) : (
          <p className="note">{empty}</p>
        )}
        <Pager query={query} list={d.list} pages={pages} />
      </Section>
    </>,
    admin,
    {},
    { area: "people" },
  );
}
