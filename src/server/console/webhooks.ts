/**
 * The delivery log (GET /admin/webhooks): whether webhooks are on, paused by a 410 or off, the counts, and the
 * recent events (all, or those waiting, failed or delivered) with their status, attempts, last answer (a row whose
 * last attempt failed is marked in red), next try and payload; "Retry now" for one (its notice says what it did:
 * nothing for an unknown or delivered event), "Deliver everything waiting now" (every waiting event due, drained
 * in the background: jobs.ts), "Send a test event", and "Re-enable deliveries" after a 410 (POST, action=…).
 */
import { auditStart } from "../audit";
import type { ServerConfig } from "../config";
import { shownWebhookUrl } from "../config/webhooks";
import { DataKeyError } from "../data-key";
import { escapeHtml as h } from "../http/form-page";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import type { Store } from "../store/types";
import { createWebhookStore, deliverNow, type EventRow, eventBody } from "../webhooks";
import { adminIdentity } from "./identity";
import { type JobDeps, jobPath, startJob } from "./jobs";
import { CONSOLE_PATHS, message, page } from "./pages";

/** The log's filters, by the word in its address, and the state each shows. */
const FILTERS = { waiting: "pending", failed: "failed", delivered: "delivered" } as const;
type Filter = keyof typeof FILTERS;
const isFilter = (value: string | null): value is Filter => value !== null && Object.hasOwn(FILTERS, value);

/** An event's body as it is (or was) sent, for the log; what cannot be shown says why. */
function payload(event: EventRow, store: Store): string {
  if (event.state === "delivered" && event.type !== "webhook.test") {
    return "Delivered: the person's details are no longer kept here.";
  }
  try {
    const body = eventBody(
      {
        id: event.id,
        type: event.type,
        waitlistId: event.waitlistId,
        occurredAt: event.occurredAt,
        person: event.person,
        attempts: event.attempts,
      },
      store.dataKeys,
    );
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch (error) {
    if (error instanceof DataKeyError) return `Sealed: ${error.message}`;
    throw error;
  }
}

/** Whether an event's last attempt went unacknowledged (its row is marked). */
const failing = (e: EventRow) =>
  e.state === "failed" || (e.state === "pending" && (e.lastStatus !== null || e.lastError !== null));

const RECENT = 50;
const when = (iso: string | null) => (iso ? iso.slice(0, 19).replace("T", " ") : "—");
/** Characters of a receiver's answer shown in its row; the whole (1 KB at most) opens below it. */
const ANSWER_SHOWN = 80;

/**
 * The receiver's answer as the row shows it, escaped: on one line (its line breaks and control characters as
 * spaces), cut to ANSWER_SHOWN characters, the whole kept in a disclosure when cut (no script: <details>).
 */
function answerText(answer: string | null): string {
  if (!answer) return "";
  const line = answer.replace(/[\p{Cc}\s]+/gu, " ").trim();
  if (!line) return "";
  const chars = Array.from(line);
  if (chars.length <= ANSWER_SHOWN) return `<br><span class="note">${h(line)}</span>`;
  return `<details><summary class="note">${h(chars.slice(0, ANSWER_SHOWN).join(""))}…</summary><pre>${h(answer.replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\t" ? c : " ")))}</pre></details>`;
}

export async function webhooksPage(
  store: Store,
  config: ServerConfig,
  admin: string,
  notice = "",
  show: string | null = null,
): Promise<Response> {
  const hooks = createWebhookStore(store.db);
  // Named "chosen": Tailwind reads every file under src/ for class names, and the bare English word for it is a
  // utility that adds fifteen @property rules to every public page's CSS (/product went past its first round trip).
  const chosen = isFilter(show) ? show : null;
  const [state, counts, events] = await withTimeout(
    Promise.all([hooks.state(), hooks.counts(), hooks.recent(RECENT, null, chosen ? FILTERS[chosen] : null)]),
    config.dbTimeoutMs,
  );
  const on = config.webhook
    ? state.pausedAt
      ? `<p class="error" role="alert">Deliveries are paused since ${when(state.pausedAt)}: ${h(state.pausedReason ?? "")}</p>
<form method="post" action="${CONSOLE_PATHS.webhooks}"><input type="hidden" name="action" value="resume"><button type="submit">Re-enable deliveries</button></form>`
      : `<p>On: events go to ${h(shownWebhookUrl(config.webhook.url))} (the rest of WEBHOOK_URL is not shown: it may hold a secret), signed with WEBHOOK_SECRET.</p>`
    : `<p class="note">Off: set WEBHOOK_URL and WEBHOOK_SECRET to send the list's changes to another tool.</p>`;
  const rows = events
    .map((e) => {
      const retry =
        e.state === "delivered"
          ? ""
          : `<form method="post" action="${CONSOLE_PATHS.webhooks}" class="inline"><input type="hidden" name="action" value="retry"><input type="hidden" name="id" value="${h(e.id)}"><button type="submit" class="quiet" aria-label="Retry now: ${h(e.id)}">Retry now</button></form>`;
      const answer = e.lastStatus !== null ? `${e.lastStatus}` : (e.lastError ?? "—");
      // The id (the receiver's webhook-id) and the body behind a disclosure: a 36-character id would not fit a
      // phone's column without breaking mid-word.
      const body = `<details><summary>Payload</summary><p class="note">webhook-id <code>${h(e.id)}</code></p><pre>${h(payload(e, store))}</pre></details>`;
      return `<tr${failing(e) ? ' class="failing"' : ""}><td data-label="Event">${h(e.type)}${body}</td><td data-label="At (UTC)">${when(e.occurredAt)}</td><td data-label="Status">${h(e.state)}</td><td data-label="Attempts" class="n">${e.attempts}</td><td data-label="Last answer">${h(answer)}${e.lastError && e.lastStatus !== null ? ` (${h(e.lastError)})` : ""}${answerText(e.lastAnswer)}</td><td data-label="Next try">${when(e.nextAttemptAt)}</td><td>${retry}</td></tr>`;
    })
    .join("");
  const table = rows
    ? `<div class="scroll"><table class="cards log"><thead><tr><th scope="col">Event</th><th scope="col">At (UTC)</th><th scope="col">Status</th><th scope="col" class="n">Attempts</th><th scope="col">Last answer</th><th scope="col">Next try</th><th scope="col"><span class="skip">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
    : `<p class="note">${chosen ? `No ${chosen} events.` : "No events yet."}</p>`;
  const tab = (word: Filter | null, label: string) =>
    `<li><a href="${CONSOLE_PATHS.webhooks}${word ? `?show=${word}` : ""}"${word === chosen ? ' aria-current="page"' : ""}>${label}</a></li>`;
  const tabs = `<nav aria-label="Show"><ul class="tabs">${tab(null, "All")}${tab("waiting", `Waiting (${counts.pending})`)}${tab("failed", `Failed (${counts.failed})`)}${tab("delivered", `Delivered (${counts.delivered})`)}</ul></nav>`;
  const drain =
    config.webhook && !state.pausedAt && counts.pending > 0
      ? `<form method="post" action="${CONSOLE_PATHS.webhooks}"><input type="hidden" name="action" value="drain"><button type="submit">Deliver everything waiting now</button></form>`
      : "";
  const test = config.webhook
    ? `<form method="post" action="${CONSOLE_PATHS.webhooks}"><input type="hidden" name="action" value="test"><button type="submit" class="quiet">Send a test event</button></form>`
    : "";
  return page(
    200,
    "Webhooks",
    `<h1>Webhooks</h1>${notice ? `<p class="notice" role="status">${h(notice)}</p>` : ""}
<section aria-labelledby="state"><h2 id="state">Deliveries</h2>${on}
<p>${counts.pending} waiting · ${counts.delivered} delivered · ${counts.failed} failed</p>${drain}${test}</section>
<section aria-labelledby="recent"><h2 id="recent">Recent events</h2>${tabs}${table}</section>`,
    admin,
  );
}

export async function webhooksAction(
  store: Store,
  config: ServerConfig,
  admin: string,
  fields: Record<string, string>,
  visit: { origin: string; deps: JobDeps },
) {
  const hooks = createWebhookStore(store.db);
  const action = fields["action"];
  if (action === "retry") {
    const id = fields["id"] ?? "";
    if (!/^msg_[0-9a-f]{32}$/.test(id)) return message(400, "Webhooks", "That event does not exist.", admin);
    const entry = await auditStart(store.db, admin, "webhook-retry", { event: id });
    // An unknown event, or one delivered already (acknowledged: never sent twice), is left as it is, and said so.
    const before = await hooks.stateOf(id);
    if (!before || before.state === "delivered") {
      await entry.end({ event: id, queued: false });
      return seeOther(`${CONSOLE_PATHS.webhooks}?done=${before ? "retry-delivered" : "retry-unknown"}`);
    }
    const queued = await hooks.retry(id);
    await entry.end({ event: id, queued });
    // Paused by a 410, or webhooks off: the event waits for deliveries to be on again, and the notice says so.
    if (!config.webhook) return seeOther(`${CONSOLE_PATHS.webhooks}?done=retry-off`);
    if ((await hooks.state()).pausedAt) return seeOther(`${CONSOLE_PATHS.webhooks}?done=retry-paused`);
    await deliverNow(store, config, "console", 15_000);
    const after = await hooks.stateOf(id);
    if (after?.state === "delivered") return seeOther(`${CONSOLE_PATHS.webhooks}?done=retry`);
    const tried = after !== null && (after.lastStatus !== null || after.lastError !== null);
    return seeOther(`${CONSOLE_PATHS.webhooks}?done=${tried ? "retry-missed" : "retry-queued"}`);
  }
  if (action === "drain") {
    if (!config.webhook) return message(400, "Webhooks", "Webhooks are off.", admin);
    if ((await hooks.state()).pausedAt) {
      return message(
        409,
        "Webhooks",
        "Deliveries are paused: re-enable them first, then deliver what is waiting.",
        admin,
      );
    }
    const logId = (await adminIdentity(config, store)).logId(admin);
    const entry = await auditStart(store.db, admin, "webhooks-drain");
    const drain = await hooks.drain(logId);
    await entry.end({ drain: drain.id, waiting: drain.total });
    await startJob({ store, config, admin, origin: visit.origin, logId, deps: visit.deps }, "webhooks", drain.id);
    return seeOther(`${jobPath("webhooks", drain.id)}&done=started`);
  }
  if (action === "test") {
    if (!config.webhook) return message(400, "Webhooks", "Webhooks are off.", admin);
    const entry = await auditStart(store.db, admin, "webhook-test");
    const id = await hooks.test();
    await entry.end({ event: id });
    await deliverNow(store, config, "console", 15_000);
    return seeOther(`${CONSOLE_PATHS.webhooks}?done=test`);
  }
  if (action === "resume") {
    const entry = await auditStart(store.db, admin, "webhooks-resume");
    await hooks.resume();
    await entry.end();
    await deliverNow(store, config, "console", 15_000);
    return seeOther(`${CONSOLE_PATHS.webhooks}?done=resume`);
  }
  return message(400, "Webhooks", "Use the page's buttons.", admin);
}

/** What the page says after an action (by a fixed word in its address: nothing typed there is shown). */
export const WEBHOOK_NOTICES: Record<string, string> = {
  retry: "The event was tried again now: delivered.",
  "retry-missed":
    "The event was tried again now: the receiver did not acknowledge it (its row shows the answer). It is tried again on its schedule.",
  "retry-queued": "The event is due now, behind others due before it: its row shows when it goes.",
  "retry-unknown": "Nothing was done: there is no such event (a delivered event is deleted after 30 days).",
  "retry-delivered": "Nothing was done: that event was delivered already, and an event is never sent twice.",
  "retry-paused": "The event is queued: it goes once deliveries are re-enabled (they are paused, below).",
  "retry-off": "The event is queued: it goes once webhooks are on (WEBHOOK_URL and WEBHOOK_SECRET).",
  test: "A test event was sent; its row shows the answer.",
  resume: "Deliveries are on again; waiting events are going out.",
};
