/**
 * The dashboard's page: totals, the growth chart, where sign-ups come from, letting people in, the list's page and
 * the download; one section a function, in the order they appear. The layout and the console's other pages are
 * pages.ts's.
 */
import { counted } from "../../lib/plural";
import { ENTRY_STATUSES, type EntryStatus } from "../entry";
import { escapeHtml as h } from "../http/form-page";
import type { BreakdownField, ReferralSummary, StatusCounts } from "../store/types";
import { type DayCount, describeGrowth, growthChart } from "./chart";
import { type ListedPage, MATCH_CAP, MAX_PAGE, MIN_PART, type PartSearch, PER_PAGE } from "./list";
import { CONSOLE_PATH, CONSOLE_PATHS, CONSOLE_WAVE_MAX, CONSOLE_WAVE_MAX_MAIL, page } from "./pages";

export interface Dashboard {
  admin: string;
  counts: StatusCounts;
  range: 30 | 90;
  days: DayCount[];
  breakdown: Record<BreakdownField, Array<{ value: string | null; count: number }>>;
  /** A page of the list; `page` is null on a page reached by cursor without its number. */
  newest: ListedPage & {
    count: number;
    capped: boolean;
    page: number | null;
    search: string;
    partSearch: PartSearch | null;
  };
  invite: { ready: boolean; reason: string | null; mail: boolean };
  notice: string | null;
  /** Mail-off waves whose file the console still offers (wave-files.ts), as HTML; empty when none. */
  files: string;
  /** Counted referrals, and the top referrers of the last REFERRAL_WINDOW_DAYS days. */
  referrals: ReferralSummary;
  /** Said on every visit while sign-ups are kept as plain text (DATA_KEY unset, or rows not yet sealed). */
  atRest: string | null;
  /** What needs the team now, as HTML (jobs.ts): the webhook banner, and every send and wave still open with its bar. */
  attention?: string;
  /** Reminded to confirm and confirmed after; reminded of an invitation and joined after (reminders/). */
  reminders?: { confirm: { reminded: number; confirmed: number }; invite: { reminded: number; joined: number } };
}

const BREAKDOWN_TITLES: Record<BreakdownField, [table: string, column: string]> = {
  source: ["Sources", "Source"],
  medium: ["Media", "Medium"],
  campaign: ["Campaigns", "Campaign"],
  referrer: ["Referring sites", "Site"],
};

const STATUS_LABELS: Record<EntryStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  invited: "Invited",
  joined: "Joined",
};

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return `${CONSOLE_PATH}${text ? `?${text}` : ""}`;
};

const share = (part: number, whole: number) => (whole > 0 ? ` (${Math.round((part / whole) * 100)} %)` : "");

/** One line under the totals once a reminder has gone: what the reminders won back. */
export function reminderLine(reminders: Dashboard["reminders"]): string {
  if (!reminders || reminders.confirm.reminded + reminders.invite.reminded === 0) return "";
  const { confirm, invite } = reminders;
  const parts = [
    confirm.reminded > 0
      ? `${counted(confirm.confirmed, "person", "people")} confirmed after a reminder, of ${counted(confirm.reminded, "reminded", "reminded")}${share(confirm.confirmed, confirm.reminded)}`
      : "",
    invite.reminded > 0
      ? `${counted(invite.joined, "person", "people")} joined after a reminder of their invitation, of ${counted(invite.reminded, "reminded", "reminded")}${share(invite.joined, invite.reminded)}`
      : "",
  ].filter(Boolean);
  return `<p class="note" id="reminders-outcome">Reminders: ${parts.join("; ")}.</p>`;
}

function totals(counts: StatusCounts, reminders: Dashboard["reminders"]): string {
  const cells = ENTRY_STATUSES.map((s) => `<div><dt>${STATUS_LABELS[s]}</dt><dd>${counts[s]}</dd></div>`).join("");
  return `<section aria-labelledby="totals"><h2 id="totals">The list</h2><dl class="totals">${cells}<div><dt>Total</dt><dd>${counts.total}</dd></div></dl>${reminderLine(reminders)}</section>`;
}

function growth(d: Dashboard): string {
  const tabs = ([30, 90] as const)
    .map(
      (r) => `<li><a href="${h(query({ range: r }))}"${r === d.range ? ' aria-current="page"' : ""}>${r} days</a></li>`,
    )
    .join("");
  const rows = d.days.map((day) => `<tr><td>${h(day.day)}</td><td class="n">${day.count}</td></tr>`).join("");
  return `<section aria-labelledby="growth"><h2 id="growth">Sign-ups per day</h2>
<ul class="tabs" aria-label="Range">${tabs}</ul>
<p class="note">${h(describeGrowth(d.days))}</p>
${growthChart(d.days, "growth-chart")}
<details><summary>The numbers, day by day</summary><div class="scroll"><table><caption class="note">Sign-ups per day (UTC), last ${d.range} days</caption><thead><tr><th scope="col">Day</th><th scope="col" class="n">Sign-ups</th></tr></thead><tbody>${rows}</tbody></table></div></details>
</section>`;
}

function breakdown(d: Dashboard): string {
  const tables = (Object.keys(BREAKDOWN_TITLES) as BreakdownField[])
    .map((field) => {
      const rows = d.breakdown[field]
        .map((r) => `<tr><td>${r.value === null ? "<i>none</i>" : h(r.value)}</td><td class="n">${r.count}</td></tr>`)
        .join("");
      const body = rows || `<tr><td colspan="2" class="note">No sign-ups</td></tr>`;
      const [title, column] = BREAKDOWN_TITLES[field];
      return `<div><table><caption><h3>${title}</h3></caption><thead><tr><th scope="col">${column}</th><th scope="col" class="n">Sign-ups</th></tr></thead><tbody>${body}</tbody></table></div>`;
    })
    .join("");
  return `<section aria-labelledby="where"><h2 id="where">Where they came from, last ${d.range} days</h2><div class="grid">${tables}</div></section>`;
}

/** The window of "top referrers": long enough to see a ring form, short enough to be news. */
export const REFERRAL_WINDOW_DAYS = 30;

function referrals(d: Dashboard): string {
  const { counted, recent, top } = d.referrals;
  const rows = top
    .map(
      (r) =>
        `<tr><td data-label="Referrer">${h(r.email)}</td><td data-label="Code">${h(r.code)}</td><td data-label="Counted" class="num">${r.counted}</td></tr>`,
    )
    .join("");
  const table = rows
    ? `<div class="scroll"><table class="cards"><caption>Top referrers, last ${REFERRAL_WINDOW_DAYS} days</caption><thead><tr><th scope="col">Referrer</th><th scope="col">Code</th><th scope="col">Counted</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : `<p class="note">No referral counted in the last ${REFERRAL_WINDOW_DAYS} days.</p>`;
  return `<section aria-labelledby="referrals"><h2 id="referrals">Referrals</h2>
<p>${counted} counted in all · ${recent} in the last ${REFERRAL_WINDOW_DAYS} days</p>
<p class="note">A referral counts when the person who came by a share link confirms a mailbox of their own; one referrer's many in a short time can be a ring.</p>${table}</section>`;
}

function invite(d: Dashboard): string {
  const body = d.invite.ready
    ? `<p class="note">Invites the people who confirmed first: each gets a single-use code ${d.invite.mail ? "by e-mail" : "in a CSV file you download (e-mail is off)"}. You'll see how many and from which sign-up days before anything is sent.</p>
<form method="post" action="${CONSOLE_PATHS.invite}"><div class="row"><div><label for="next">How many</label>
<input id="next" name="next" type="number" min="1" max="${d.invite.mail ? CONSOLE_WAVE_MAX_MAIL : CONSOLE_WAVE_MAX}" value="${Math.min(100, Math.max(1, d.counts.confirmed))}" required inputmode="numeric"></div>
<button type="submit">Preview</button></div></form>`
    : `<p class="note">${h(d.invite.reason ?? "")}</p>`;
  return `<section aria-labelledby="invite"><h2 id="invite">Let people in</h2>${body}</section>`;
}

/** What the list's line under the search says: how many, which page, and how a search finds its matches. */
function listNote(d: Dashboard, pages: number): string {
  const { count, capped, page: at, search, partSearch } = d.newest;
  const counted = capped
    ? `More than ${MATCH_CAP.toLocaleString("en")} matching`
    : `${count} ${search ? "matching" : "in all"}`;
  const where = at === null ? "" : ` · page ${at} of ${pages}`;
  const how =
    search === ""
      ? ""
      : search.length < MIN_PART
        ? ` · Type at least ${MIN_PART} characters to find part of an address; shorter finds whole addresses only.`
        : partSearch === "start"
          ? " · This database has no pg_trgm, so a part finds addresses that start with it."
          : "";
  return `${counted}${where}${how}`;
}

function newest(d: Dashboard): string {
  const { rows, count, page: at, search } = d.newest;
  const body = rows
    .map(
      (
        r,
      ) => `<tr><td data-label="Signed up">${h(r.created_at.slice(0, 16).replace("T", " "))}</td><td data-label="Email"><a href="${CONSOLE_PATHS.person}?id=${r.id}">${h(r.email)}</a></td><td data-label="Name">${h(r.name ?? "")}</td><td data-label="Status">${STATUS_LABELS[r.status]}</td><td data-label="Source">${h(r.source ?? "")}</td><td data-label="Referrals">${r.referrals} <span class="note">· code ${h(r.referralCode)}</span></td>
<td><form method="post" action="${CONSOLE_PATHS.remove}" class="inline"><input type="hidden" name="email" value="${h(r.email)}"><button type="submit" class="quiet" aria-label="Remove ${h(r.email)}">Remove</button></form></td></tr>`,
    )
    .join("");
  const empty = `<tr><td colspan="7" class="note">${search ? "No address matches." : at !== null && at > 1 ? "No sign-ups on this page." : "No sign-ups yet."}</td></tr>`;
  const pages = Math.max(1, Math.ceil(count / PER_PAGE));
  // "Older" and "Newer" go on from the row at the edge of this page (a cursor), so no page skips or repeats a row
  // when sign-ups arrive between two clicks; the page number they carry only labels the page.
  const [first, last] = [rows[0], rows[rows.length - 1]];
  const near = (step: number) => (at === null || at + step < 1 || at + step > MAX_PAGE ? undefined : at + step);
  const links = [
    d.newest.newer && first
      ? `<a href="${h(query({ range: d.range, q: search, after: first.cursor, page: near(-1) }))}">Newer</a>`
      : "",
    d.newest.older && last
      ? `<a href="${h(query({ range: d.range, q: search, before: last.cursor, page: near(1) }))}">Older</a>`
      : "",
  ].join("");
  const jump = `<form method="get" action="${CONSOLE_PATH}" class="row"><input type="hidden" name="range" value="${d.range}">${search ? `<input type="hidden" name="q" value="${h(search)}">` : ""}<div><label for="page">Go to page</label>
<input id="page" name="page" type="number" min="1" max="${Math.min(pages, MAX_PAGE)}" inputmode="numeric" required></div><button type="submit" class="quiet">Go</button></form>`;
  return `<section aria-labelledby="newest"><h2 id="newest">Newest sign-ups</h2>
<form method="get" action="${CONSOLE_PATH}" role="search"><input type="hidden" name="range" value="${d.range}"><div class="row"><div><label for="q">Search by address</label>
<input id="q" name="q" type="search" value="${h(search)}" maxlength="255"></div><button type="submit" class="quiet">Search</button></div></form>
<p class="note">${h(listNote(d, pages))}</p>
<div class="scroll"><table class="cards"><thead><tr><th scope="col">Signed up (UTC)</th><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Referrals</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${body || empty}</tbody></table></div>
<nav class="pages" aria-label="Pages">${links}</nav>${pages > 1 ? jump : ""}</section>`;
}

function exportSection(): string {
  return `<section aria-labelledby="export"><h2 id="export">Export</h2>
<form method="post" action="${CONSOLE_PATHS.export}"><div class="row"><div><label for="format">Format</label>
<select id="format" name="format"><option value="csv">CSV (spreadsheets)</option><option value="mail-csv">CSV (mail tools)</option><option value="json">JSON</option></select></div>
<button type="submit">Download the list</button></div></form>
<p class="note">For spreadsheets, every column, with cells that could run as formulas made safe. For mail tools, address and name exactly as given (do not open that file in a spreadsheet). A long list comes in numbered parts, each a whole file.</p></section>`;
}

export function dashboardPage(d: Dashboard): Response {
  const notice = d.notice ? `<p class="notice" role="status">${h(d.notice)}</p>` : "";
  const atRest = d.atRest ? `<p class="error">${h(d.atRest)}</p>` : "";
  return page(
    200,
    "Waitlist",
    `<h1>Waitlist</h1>${notice}${atRest}${d.attention ?? ""}${totals(d.counts, d.reminders)}${growth(d)}${breakdown(d)}${referrals(d)}${invite(d)}${d.files}${newest(d)}${exportSection()}`,
    d.admin,
  );
}
