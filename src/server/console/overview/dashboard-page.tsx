/**
 * The overview's page, in the order the team needs it (issue 42): first what needs them (dashboard-attention.tsx),
 * then the totals with the way to the list of people, the chart (chart.tsx), the funnel by source (funnel.tsx),
 * then the rest (dashboard-rest.tsx). dashboard.ts reads what it shows; the frame is pages.tsx's.
 */
import type { Finding } from "../../setup";
import type { ReferralSummary, StatusCounts } from "../../store/types";
import { CONSOLE_PATH, CONSOLE_PATHS, consoleHref, page } from "../pages";
import type { ChartDay, ChartMark, SuppressionTrend } from "../store";
import { Figures, Notice, Section, StatusBadge } from "../ui/parts";
import type { AttentionProps } from "./attention";
import { GrowthChart } from "./chart";
import { NeedsAttention } from "./dashboard-attention";
import { DownloadList, type InviteState, LetPeopleIn, Referrals, ReminderLine, type Reminders } from "./dashboard-rest";
import { SentLately, type SentWork } from "./dashboard-sent";
import { FunnelSection } from "./funnel";
import type { Funnel } from "./funnel-store";
import { type VisitorFigures, VisitorsSection } from "./visitors";

export { REFERRAL_WINDOW_DAYS } from "./dashboard-rest";

export interface Overview {
  admin: string;
  /** The chart's range, in days. */
  range: 30 | 90;
  counts: StatusCounts;
  /** Today's and the last 30 days' visitors and sign-ups: the first figures (visitors.tsx). */
  visitors: VisitorFigures;
  chart: ChartDay[];
  marks: ChartMark[];
  funnel: Funnel;
  referrals: ReferralSummary;
  reminders: Reminders;
  /** The required settings not made yet, in doctor's words (setup/'s missingRequired): said before anything else. */
  setup: Finding[];
  /** Said while personal data is at risk (DATA_KEY unset, or rows not yet sealed): dashboard.ts's atRestWarning. */
  atRest: string | null;
  suppressions: SuppressionTrend;
  /** Webhooks that need the team and every job under way (attention.tsx). */
  attention: AttentionProps;
  webhooksOn: boolean;
  invite: InviteState;
  /** Mail-off waves whose file the console still offers again. */
  files: Array<{ id: number; people: number }>;
  /** What an action just did (a wave, a removal), from the address it sent the admin back to. */
  notice: string | null;
  /** The latest updates and waves, each a link to its page (dashboard-sent.tsx). */
  sent: SentWork;
}

/** The totals as big numbers, each status by its badge, and the way to the people behind them. */
function Totals({ counts, reminders }: Pick<Overview, "counts" | "reminders">) {
  const statuses = ["pending", "confirmed", "invited", "joined"] as const;
  return (
    <Section id="totals" title="The list">
      <Figures
        className="totals"
        items={[
          ...statuses.map(
            (status) =>
              [
                <StatusBadge key={status} status={status} />,
                <a key={status} href={consoleHref(CONSOLE_PATHS.people, { status })}>
                  {counts[status].toLocaleString("en")}
                  <span className="sr-only"> {status}: see them in the list</span>
                </a>,
              ] as const,
          ),
          ["In all", counts.total.toLocaleString("en")] as const,
        ]}
      />
      <ReminderLine reminders={reminders} />
      <search>
        <form method="get" action={CONSOLE_PATHS.people} className="find">
          <div className="row">
            <div>
              <label htmlFor="find">Find someone by address</label>
              <input id="find" name="q" type="search" maxLength={255} />
            </div>
            <button type="submit" className="quiet">
              Search
            </button>
            <a className="button quiet" href={CONSOLE_PATHS.people}>
              See everyone
            </a>
          </div>
        </form>
      </search>
    </Section>
  );
}

function Growth({ range, chart, marks, funnel }: Pick<Overview, "range" | "chart" | "marks" | "funnel">) {
  const href = (r: 30 | 90) =>
    `${consoleHref(CONSOLE_PATH, { range: r === 30 ? undefined : r, funnel: funnel.range === "30" ? undefined : funnel.range })}#growth`;
  return (
    <Section id="growth" title="Sign-ups per day">
      <ul className="tabs" aria-label="Days shown">
        {([30, 90] as const).map((r) => (
          <li key={r}>
            <a href={href(r)} aria-current={r === range ? "page" : undefined}>
              {r} days
            </a>
          </li>
        ))}
      </ul>
      <GrowthChart days={chart} marks={marks} range={range} id="growth-chart" />
    </Section>
  );
}

export function dashboardPage(d: Overview): Response {
  return page(
    200,
    "Overview",
    <>
      <h1>Overview</h1>
      {d.notice ? <Notice>{d.notice}</Notice> : null}
      <NeedsAttention
        setup={d.setup}
        atRest={d.atRest}
        suppressions={d.suppressions}
        attention={d.attention}
        webhooksOn={d.webhooksOn}
      />
      <VisitorsSection figures={d.visitors} />
      <Totals counts={d.counts} reminders={d.reminders} />
      <Growth range={d.range} chart={d.chart} marks={d.marks} funnel={d.funnel} />
      <FunnelSection funnel={d.funnel} chartRange={d.range} />
      <Referrals referrals={d.referrals} />
      <LetPeopleIn invite={d.invite} confirmed={d.counts.confirmed} files={d.files} />
      <SentLately updates={d.sent.updates} waves={d.sent.waves} />
      <DownloadList />
    </>,
    d.admin,
    {},
    { area: "home" },
  );
}
