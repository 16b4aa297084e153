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
import { isFiltered, type PeopleQuery, peopleParams, REFUSED, readPeopleQuery } from "./people-filter";
import { MatchingActions } from "./people-matching";
import { listNote, noticeOf } from "./people-notes";
import { Pager } from "./people-pager";
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

/** The list's reads for one page, under one deadline. */
async function loadPeople(store: Store, config: ServerConfig, query: PeopleQuery, keep: Kept) {
  const { filter, sort, position } = query;
  const filtered = isFiltered(filter);
  const list = store.of(createConsoleList);
  const data = store.of(peopleData);
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
    invitable: filtered ? await store.of(createMatching).invitableCount(filter, MATCH_CAP + 1) : 0,
  });
  // Eight short reads in a row: they share a deadline of two statements' time, not one each.
  return withTimeout(list.page(filter, position, sort).then(load), config.dbTimeoutMs * 2);
}
type PeopleData = Awaited<ReturnType<typeof loadPeople>>;

/** What the address keeps beside the filters: the selection, and what the last action did. */
type Kept = { select: string | undefined; done: string | undefined; removed: string | undefined };
function keptParams(given: URLSearchParams): Kept {
  return {
    select: given.get("select") === "all" ? "all" : undefined,
    done: given.get("done") === "invited" ? "invited" : undefined,
    removed: /^\d{1,15}$/.test(given.get("removed") ?? "") ? (given.get("removed") ?? undefined) : undefined,
  };
}

/** The heading over the list: how many, or how many match. */
function headingOf(filtered: boolean, matching: PeopleData["matching"]): string {
  const many = matching.capped
    ? `More than ${counted(MATCH_CAP, "person", "people")}`
    : counted(matching.count, "person", "people");
  if (!filtered) return many;
  return matching.count === 0 ? "Nobody matches" : `${many} match`;
}

/** What an empty list says, by why it is empty. */
function emptyNote(query: PeopleQuery): string {
  if (query.filter.search) return "No address matches.";
  if (isFiltered(query.filter)) return "Nobody matches these filters.";
  const at = query.position.page;
  return at !== null && at > 1 ? "Nobody on this page." : "No sign-ups yet.";
}

export async function peopleGet({ store, config, admin, url }: PeopleVisit): Promise<Response> {
  const query = readPeopleQuery(url.searchParams);
  if ("refused" in query) {
    const { title, text } = REFUSED[query.refused];
    return message(400, title, text, admin);
  }
  // A filter form sends every field, chosen or not: its answer is the same list at its shortest address, to keep or
  // to share (the one every link of the page writes).
  const keep = keptParams(url.searchParams);
  const canonical = consoleHref(CONSOLE_PATHS.people, { ...listParams(query), ...keep });
  if (canonical !== consoleHref(CONSOLE_PATHS.people, Object.fromEntries(url.searchParams))) return seeOther(canonical);
  const d = await loadPeople(store, config, query, keep);
  return page(
    200,
    "People",
    <PeoplePage query={query} d={d} url={url} mail={config.mail !== null} />,
    admin,
    {},
    {
      area: "people",
    },
  );
}

function PeoplePage({ query, d, url, mail }: { query: PeopleQuery; d: PeopleData; url: URL; mail: boolean }) {
  const { filter, sort, position } = query;
  const filtered = isFiltered(filter);
  const pages = d.matching.capped ? null : Math.max(1, Math.ceil(d.matching.count / PER_PAGE));
  const here = listParams(query);
  const selectHref = consoleHref(CONSOLE_PATHS.people, { ...here, select: query.selectAll ? undefined : "all" });
  return (
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
      <Section id="found" title={headingOf(filtered, d.matching)}>
        <FilterChips filter={filter} sort={sort} wave={d.wave} />
        <p className="note">{listNote(sort, position.page, pages, filter.search, d.how)}</p>
        {filtered && d.list.rows.length > 0 ? (
          <MatchingActions filter={filter} invitable={d.invitable} mail={mail} />
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
          <p className="note">{emptyNote(query)}</p>
        )}
        <Pager query={query} list={d.list} pages={pages} />
      </Section>
    </>
  );
}
