/**
 * The console's first page, the overview: what it reads, in one place, before dashboard-page.tsx lays it out. What
 * needs the team (attention.tsx's jobs and webhooks, data at rest, suppressions rising), the totals, the chart's
 * days and what went out in them, the funnel, referrals, reminders, letting people in and the files of mail-off
 * waves. Every read is a tally or an index (store.ts, funnel-store.ts): the page answers within the console's
 * budget at a million sign-ups. The list of people has its own page (CONSOLE_PATHS.people); an old address of the
 * list here (?q=, ?page=, a cursor) is sent there.
 */
import { counted, isAre } from "../../../lib/plural";
import type { ServerConfig } from "../../config";
import { seeOther } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import { earlyAccessBase, InviteConfigError } from "../../invitations";
import { waveRecords } from "../../invitations/wave-record";
import { createReminderStore } from "../../reminders";
import { missingRequired, PLAIN_TEXT_AT_REST } from "../../setup";
import type { Sealing, Store } from "../../store/types";
import { createVisitStore } from "../../visits";
import { CONSOLE_PATHS, consoleHref } from "../paths";
import { createOverviewStore } from "../store";
import { waveNotice } from "../waves/wave-files";
import { loadAttention } from "./attention";
import { dashboardPage, REFERRAL_WINDOW_DAYS } from "./dashboard-page";
import { loadSentWork } from "./dashboard-sent";
import { funnelRange } from "./funnel-store";
import { funnelFromVisitors } from "./funnel-visits";
import { visitorFigures } from "./visitors";

/** What the overview says after a removal (its 303 carries whether one happened, never an address). */
function removalNotice(params: URLSearchParams): string | null {
  if (params.get("removed") === "1") return "Removed: the address, everything it sent and its links are deleted.";
  if (params.get("removed") === "0") return "That address is not on the list (it may have been removed already).";
  return null;
}

/**
 * What the console says at the top while personal data is at risk: sealed rows this deploy cannot open (so every
 * sign-up is refused until DATA_KEY is set), or rows stored as plain text; null once every row is sealed.
 */
export function atRestWarning(config: ServerConfig, sealing: Sealing): string | null {
  const sealedKeys = Object.keys(sealing.sealed);
  if (!config.dataKeys && sealedKeys.length > 0) {
    return `Sign-ups are refused: rows are sealed under key ${sealedKeys.join(", ")}, but DATA_KEY is not set on this deploy. Set DATA_KEY to the key they were sealed with; nothing is stored in clear meanwhile.`;
  }
  if (!config.dataKeys) return PLAIN_TEXT_AT_REST;
  if (sealing.plain > 0) {
    return `${counted(sealing.plain, "sign-up")} from before DATA_KEY was set ${isAre(sealing.plain)} still plain text: run npm run waitlist -- encrypt.`;
  }
  return null;
}

/** What the reminders won back so far: reminded to confirm and confirmed after, reminded of an invitation and joined after. */
async function reminderOutcome(store: Store) {
  const reminders = store.of(createReminderStore);
  const [confirm, invite] = await Promise.all([reminders.outcome(), reminders.inviteOutcome()]);
  return { confirm, invite };
}

/** The list's own parameters, from when it was on this page: its page now. */
const LIST_PARAMS = ["q", "page", "before", "after"];

export async function dashboard(store: Store, config: ServerConfig, admin: string, url: URL, mail: boolean) {
  if (LIST_PARAMS.some((name) => url.searchParams.has(name))) {
    return seeOther(consoleHref(CONSOLE_PATHS.people, Object.fromEntries(url.searchParams)));
  }
  const range = url.searchParams.get("range") === "90" ? 90 : 30;
  const funnel = funnelRange(url.searchParams.get("funnel"));
  const overview = store.of(createOverviewStore);
  const visits = store.of(createVisitStore);
  // Today in UTC, as the rollups and the tallies count days.
  const today = new Date().toISOString().slice(0, 10);
  const load = async () => ({
    visitors: await visitorFigures(store.db, today),
    attention: await loadAttention(store, config),
    sealing: await store.sealing(),
    suppressions: await overview.suppressions(),
    counts: await store.countByStatus(),
    chart: await overview.chart(range),
    visitorsPerDay: await visits.perDay(today, range),
    marks: await overview.marks(range),
    funnel: await funnelFromVisitors(store.db, funnel, today),
    referrals: await store.referrals.summary(REFERRAL_WINDOW_DAYS),
    reminders: await reminderOutcome(store),
    files: await store.of(waveRecords).pendingFiles(),
    sent: await loadSentWork(store.db),
    // Notices come from the wave's row, by its id: a number typed into the address shows nothing it did not do.
    notice: (await waveNotice(store, url.searchParams)) ?? removalNotice(url.searchParams),
  });
  const read = await withTimeout(load(), config.dbTimeoutMs * 2);
  // The chart's days gain the site's visitors (none counted on a day: 0); no line at all when the range has none.
  const chart =
    read.visitorsPerDay.size === 0
      ? read.chart
      : read.chart.map((day) => ({ ...day, visitors: read.visitorsPerDay.get(day.day) ?? 0 }));
  const data = { ...read, chart };
  let reason: string | null = null;
  try {
    earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (!(error instanceof InviteConfigError)) throw error;
    reason = "Set EARLY_ACCESS_URL (the product's sign-up page) on the site to let people in from here.";
  }
  return dashboardPage({
    ...data,
    admin,
    range,
    setup: missingRequired(config),
    atRest: atRestWarning(config, data.sealing),
    webhooksOn: Boolean(config.webhook),
    invite: { ready: reason === null, reason, mail },
  });
}
