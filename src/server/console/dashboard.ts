/** The console's dashboard: totals, the chart and sources, the list's page, and what needs the team's attention. */
import { counted, isAre } from "../../lib/plural";
import { LIMITS } from "../../lib/waitlist/rules";
import type { ServerConfig } from "../config";
import { withTimeout } from "../http/timeout";
import { earlyAccessBase, InviteConfigError } from "../invitations";
import { createReminderStore } from "../reminders";
import type { Sealing, Store } from "../store/types";
import { dashboardPage, REFERRAL_WINDOW_DAYS } from "./dashboard-page";
import { attentionSections } from "./jobs";
import { createConsoleList, listPosition, MAX_PAGE } from "./list";
import { message } from "./pages";
import { pendingFilesSection, waveNotice } from "./wave-files";

/** What the dashboard says after a removal (its 303 carries whether one happened, never an address). */
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
  if (!config.dataKeys) {
    return "Sign-ups are stored as plain text: anyone with a copy of the database (a preview's branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";
  }
  if (sealing.plain > 0) {
    return `${counted(sealing.plain, "sign-up")} from before DATA_KEY was set ${isAre(sealing.plain)} still plain text: run npm run waitlist -- encrypt.`;
  }
  return null;
}

/** What the reminders won back so far: reminded to confirm and confirmed after, reminded of an invitation and joined after. */
async function reminderOutcome(store: Store) {
  const reminders = createReminderStore(store.db);
  const [confirm, invite] = await Promise.all([reminders.outcome(), reminders.inviteOutcome()]);
  return { confirm, invite };
}

export async function dashboard(store: Store, config: ServerConfig, admin: string, url: URL, mail: boolean) {
  const range = url.searchParams.get("range") === "90" ? 90 : 30;
  const position = listPosition(url.searchParams);
  if (!position) {
    return message(
      400,
      "That page doesn't exist",
      `Pages of the list are numbered from 1 to ${MAX_PAGE.toLocaleString("en")}; use the list's own links to go further.`,
      admin,
    );
  }
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, LIMITS.email);
  const list = createConsoleList(store.db, store.dataKeys);
  const load = async () => ({
    counts: await store.countByStatus(),
    days: await store.perDay(range),
    breakdown: await store.breakdown(range, 5),
    referrals: await store.referrals.summary(REFERRAL_WINDOW_DAYS),
    page: await list.page(search, position),
    matching: search ? await list.matching(search) : null,
    partSearch: search ? await list.partSearch() : null,
    sealing: await store.sealing(),
    // Notices come from the wave's row, by its id: a number typed into the address shows nothing it did not do.
    notice: (await waveNotice(store, url.searchParams)) ?? removalNotice(url.searchParams),
    files: await pendingFilesSection(store),
    attention: await attentionSections(store, config),
    reminders: await reminderOutcome(store),
  });
  const data = await withTimeout(load(), config.dbTimeoutMs * 2);
  let reason: string | null = null;
  try {
    earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (!(error instanceof InviteConfigError)) throw error;
    reason = "Set EARLY_ACCESS_URL (the product's sign-up page) on the site to let people in from here.";
  }
  const matching = data.matching ?? { count: data.counts.total, capped: false };
  return dashboardPage({
    admin,
    range,
    counts: data.counts,
    days: data.days,
    breakdown: data.breakdown,
    referrals: data.referrals,
    atRest: atRestWarning(config, data.sealing),
    newest: {
      ...data.page,
      ...matching,
      page: position.page,
      search,
      partSearch: data.partSearch,
    },
    invite: { ready: reason === null, reason, mail },
    notice: data.notice,
    files: data.files,
    attention: data.attention,
    reminders: data.reminders,
  });
}
