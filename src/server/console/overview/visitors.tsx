/**
 * The overview's first figures (issue 51): today's and the last 30 days' visitors, and how many of them signed up. A
 * day's visitors are the site's distinct visitors of each combination of source fields that day (src/server/visits/;
 * no cookie: the same person on two days is two visitors), read from the visits' tally by day (migration 0028);
 * sign-ups are the funnel's tally by day (migration 0018). Both are tallies: one read, as fast at 10,000,000 visits as
 * at ten.
 */

import { counted } from "../../../lib/plural";
import type { Db } from "../../db/types";
import { Section } from "../ui/parts";
import { percent } from "./funnel-store";

export const VISITOR_FIGURES_SQL = `SELECT
    (SELECT coalesce(sum(visitors), 0) FROM visit_tally
      WHERE span = 'day' AND field = 'all' AND day = $1::date)::bigint AS visitors_today,
    (SELECT coalesce(sum(visitors), 0) FROM visit_tally
      WHERE span = 'day' AND field = 'all' AND day > $1::date - 30 AND day <= $1::date)::bigint AS visitors_30,
    (SELECT coalesce(sum(count), 0) FROM waitlist_funnel_tally WHERE field = 'all' AND day = $1::date)::bigint
      AS signed_up_today,
    (SELECT coalesce(sum(count), 0) FROM waitlist_funnel_tally
      WHERE field = 'all' AND day > $1::date - 30 AND day <= $1::date)::bigint AS signed_up_30`;

export interface VisitorFigures {
  today: { visitors: number; signedUp: number };
  days30: { visitors: number; signedUp: number };
}

/** Today's (UTC, as `day` says) and the 30 days to it. */
export async function visitorFigures(db: Db, day: string): Promise<VisitorFigures> {
  const [row] = await db.query<Record<string, string>>(VISITOR_FIGURES_SQL, [day]);
  const n = (name: string) => Number(row?.[name] ?? 0);
  return {
    today: { visitors: n("visitors_today"), signedUp: n("signed_up_today") },
    days30: { visitors: n("visitors_30"), signedUp: n("signed_up_30") },
  };
}

/** "12 signed up (4%)": sign-ups as a share of the visitors. */
export function conversion({ visitors, signedUp }: { visitors: number; signedUp: number }): string {
  const share = percent(signedUp, visitors);
  return `${signedUp.toLocaleString("en")} signed up${share === null ? "" : ` (${share}%)`}`;
}

export function VisitorsSection({ figures }: { figures: VisitorFigures }) {
  const items = [
    ["Today", figures.today],
    ["Last 30 days", figures.days30],
  ] as const;
  return (
    <Section id="visitors" title="Visitors">
      <dl className="totals">
        {items.map(([label, counts]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              {counts.visitors === 0 ? "No visits counted" : counted(counts.visitors, "visitor")}
              <span className="pct"> · {conversion(counts)}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="note">
        {figures.days30.visitors === 0
          ? "No visits counted yet: public page views are counted from the day this count was deployed. "
          : ""}
        Counted without cookies: a visitor is one browser on one day (UTC); sign-ups are of the same days.
      </p>
    </Section>
  );
}
