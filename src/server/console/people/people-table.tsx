/**
 * The People list (people.tsx places it): a checkbox per row (its name says who), the person's page by their
 * address, status as a badge, when they signed up, where they came from, their referrals. A table on a wide screen;
 * on a phone (styles-people.ts) each person is two lines: the address and the badge, then the date, where they
 * came from and their referrals, each cut to the line rather than wrapped.
 */

import { CONSOLE_PATHS, consoleHref } from "../paths";
import { StatusBadge } from "../ui/parts";
import { CardTable } from "../ui/table";
import { utcMinute } from "../ui/time";
import type { ListedEntry } from "./list";

const cameFrom = (r: ListedEntry) => [r.medium, r.campaign].filter(Boolean).join(" · ");

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
            <td data-label="Signed up (UTC)" className="at">
              {utcMinute(r.created_at)}
            </td>
            <td data-label="Person" className="who">
              <a href={consoleHref(CONSOLE_PATHS.person, { id: r.id })}>{r.email}</a>
              {r.name ? <span className="note">{r.name}</span> : null}
            </td>
            <td data-label="Status" className="state">
              <StatusBadge status={r.status} />
            </td>
            <td data-label="Source" className="src">
              {r.source ?? <span className="note">none</span>}
              {cameFrom(r) ? <span className="note"> · {cameFrom(r)}</span> : null}
            </td>
            <td data-label="Referring site" className="ref">
              {r.referrer ?? <span className="note">none</span>}
            </td>
            <td data-label="Referrals" className="n">
              {r.referrals.toLocaleString("en")}
              <span className="on-phone"> {r.referrals === 1 ? "referral" : "referrals"}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}
