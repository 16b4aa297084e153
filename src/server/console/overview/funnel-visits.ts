/**
 * The funnel starts at visitors (issue 51): each group of the funnel by source gets the site's visitors of its range
 * (src/server/visits/), and a group that sent visitors and no sign-up is shown too, at 0. Groups are ordered by
 * visitors, then sign-ups. A group's sign-ups as a share of its visitors is its conversion. A range with no visit
 * counted (before the count began, or a site nobody has visited yet) keeps the funnel as it was, without visitors:
 * a column of zeros would read as 0% conversion, which it is not. The groups by answer (funnel-answers.ts) have no
 * visitors: an answer is given at sign-up.
 */
import type { Db } from "../../db/types";
import { createVisitStore, type VisitGroup } from "../../visits";
import { answerFunnel } from "./funnel-answers";
import { createFunnelStore, FUNNEL_FIELDS, type Funnel, type FunnelRange, type FunnelRow } from "./funnel-store";

const none = (value: string | null): FunnelRow => ({ value, signedUp: 0, confirmed: 0, invited: 0, joined: 0 });

export function withVisitors(funnel: Funnel, groups: readonly VisitGroup[]): Funnel {
  if (!groups.some((g) => g.field === "all" && g.visitors > 0)) return funnel;
  const visitorsOf = (field: string, value: string | null) =>
    groups.find((g) => g.field === field && g.value === value)?.visitors ?? 0;
  const fields = { ...funnel.fields };
  for (const field of FUNNEL_FIELDS) {
    const rows = funnel.fields[field].map((row) => ({ ...row, visitors: visitorsOf(field, row.value) }));
    for (const group of groups) {
      if (group.field !== field || rows.some((row) => row.value === group.value)) continue;
      rows.push({ ...none(group.value), visitors: group.visitors });
    }
    rows.sort(
      (a, b) =>
        (b.visitors ?? 0) - (a.visitors ?? 0) ||
        b.signedUp - a.signedUp ||
        Number(a.value === null) - Number(b.value === null) ||
        (a.value ?? "").localeCompare(b.value ?? "", "en"),
    );
    fields[field] = rows;
  }
  return { ...funnel, everyone: { ...funnel.everyone, visitors: visitorsOf("all", null) }, fields };
}

/** The funnel of `range` to `today` (UTC) from visitors: what the page and its CSV both show. */
export async function funnelFromVisitors(db: Db, range: FunnelRange, today: string): Promise<Funnel> {
  const funnel = await createFunnelStore(db).funnel(range);
  const answers = await answerFunnel(db, range);
  const visits = await createVisitStore(db).byField(today, range === "all" ? null : Number(range));
  return { ...withVisitors(funnel, visits), answers };
}
