/** The People list's pages: Newer and Older (or Previous and Next) along the keyset, and Go to page. */
import { CONSOLE_PATHS, consoleHref } from "../paths";
import type { ListedPage } from "./list";
import { MAX_PAGE, type PeopleQuery, type PeopleSort, peopleParams } from "./people-filter";

/** Each way the list goes on, named for its order (Older and Newer by date, Previous and Next by referrals). */
const PAGER: Record<PeopleSort, [before: string, after: string]> = {
  newest: ["Newer", "Older"],
  oldest: ["Older", "Newer"],
  referrals: ["Previous", "Next"],
};

export function Pager(props: { query: PeopleQuery; list: ListedPage; pages: number | null }) {
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
