/**
 * The top of the overview: what needs the team, before anything else. Personal data at risk (sealed rows this
 * deploy cannot open, or rows in plain text), suppressions rising, and attention.tsx's part (webhook deliveries
 * paused or failing, every send, wave and delivery under way); when none of these, one calm line says so.
 *
 * "Rising", decided here: at least SUPPRESSIONS_RISING_MIN mailboxes suppressed in the last 24 hours, and more than
 * twice the daily average of the 7 days before. A bounce or two a day is the ordinary cost of a list; several in a
 * day against a quiet week is a list going stale or an update being marked as spam, which the team should see
 * before the next send (an update also pauses itself past its own limits: update-reputation.tsx).
 */
import { counted } from "../../../lib/plural";
import { docsLink, type Finding } from "../../setup";
import { CONSOLE_PATHS } from "../paths";
import type { SuppressionTrend } from "../store";
import { Notice } from "../ui/parts";
import { Attention, type AttentionProps, needsAttention } from "./attention";

export const SUPPRESSIONS_RISING_MIN = 3;

/** Whether the last day's suppressions are rising against the week before (see the rule above). */
export function suppressionsRising(trend: SuppressionTrend): boolean {
  return trend.lastDay >= SUPPRESSIONS_RISING_MIN && trend.lastDay > (2 * trend.weekBefore) / 7;
}

/** Why mailboxes were suppressed, as the end of "5 mailboxes suppressed in the last 24 hours (…)". */
const REASONS: Record<string, (n: number) => string> = {
  hard_bounce: (n) => counted(n, "hard bounce"),
  complaint: (n) => counted(n, "spam complaint"),
  soft_bounces: (n) => `${n.toLocaleString("en")} after repeated soft bounces`,
  operator: (n) => `${n.toLocaleString("en")} by the team`,
  imported: (n) => `${n.toLocaleString("en")} imported from another tool`,
};

/** The week before as a daily average, in words. */
function weekWords(weekBefore: number): string {
  if (weekBefore === 0) return "none in the 7 days before";
  const average = weekBefore / 7;
  return `${average < 10 ? average.toFixed(1) : Math.round(average).toLocaleString("en")} a day in the 7 days before`;
}

function SuppressionsRising({ trend }: { trend: SuppressionTrend }) {
  const why = trend.reasons.map((r) =>
    (REASONS[r.reason] ?? ((n: number) => `${n.toLocaleString("en")} for ${r.reason}`))(r.count),
  );
  return (
    <Notice tone="warn">
      Suppressions are rising: {counted(trend.lastDay, "mailbox", "mailboxes")} suppressed in the last 24 hours (
      {why.join(", ")}), against {weekWords(trend.weekBefore)}. Nothing is sent to them any more; look at the latest
      update's bounces and complaints before the next send. <a href={CONSOLE_PATHS.updates}>Open Updates</a>
    </Notice>
  );
}

/** A required setting not made yet, in `doctor`'s words, with the way to docs/deploying.md's section on it. */
function SetupFinding({ finding }: { finding: Finding }) {
  return (
    <Notice tone="warn">
      {finding.say} <a href={docsLink(finding.docs)}>How to set {finding.name}</a>
    </Notice>
  );
}

export interface AttentionArea {
  /** The required settings not made yet (setup/'s missingRequired): said first, until there are none. */
  setup: Finding[];
  atRest: string | null;
  suppressions: SuppressionTrend;
  attention: AttentionProps;
  /** Whether webhooks are on at all (the calm line says they deliver only then). */
  webhooksOn: boolean;
}

export function NeedsAttention({ setup, atRest: warning, suppressions, attention, webhooksOn }: AttentionArea) {
  const rising = suppressionsRising(suppressions);
  // DATA_KEY unset is a setup finding in the same words: said once.
  const atRest = setup.some((f) => f.say === warning) ? null : warning;
  if (setup.length === 0 && !atRest && !rising && !needsAttention(attention)) {
    return (
      <p className="calm" id="attention">
        All calm: nothing is being sent{webhooksOn ? ", webhooks are delivering" : ""} and suppressions are steady.
      </p>
    );
  }
  return (
    <div className="attention" id="attention">
      <h2 className="sr-only">Needs your attention</h2>
      {setup.length > 0 ? (
        <p className="note">Finish setting up this site: until these are set, the console opens with them.</p>
      ) : null}
      {setup.map((finding) => (
        <SetupFinding key={finding.name} finding={finding} />
      ))}
      {atRest ? <Notice tone={atRest.startsWith("Sign-ups are refused") ? "error" : "warn"}>{atRest}</Notice> : null}
      {rising ? <SuppressionsRising trend={suppressions} /> : null}
      <Attention {...attention} />
    </div>
  );
}
