/**
 * The delivery log (GET /admin/webhooks): whether deliveries work, are failing, are paused by a 410 or are off (a
 * badge and a sentence, by webhookHealth's one rule), the counts, and the events (all, or those waiting, failed or
 * delivered), 50 a page, newest first, "Older" and "Newer" carrying the event they continue from (log-page.ts), one
 * line each (webhook-rows.tsx); "Retry now" for one, "Deliver everything waiting now", "Send a test event", and
 * "Re-enable deliveries" after a 410. The actions are webhooks.ts's.
 */
import type { ServerConfig } from "../../config";
import { shownWebhookUrl } from "../../config/webhooks";
import { withTimeout } from "../../http/timeout";
import type { Store } from "../../store/types";
import { createWebhookStore, type WebhookHealth, webhookHealth } from "../../webhooks";
import { LOG_CURSOR, type LogPage, type LogPosition, readLogPage } from "../../webhooks/log-page";
import type { WebhookStore } from "../../webhooks/store";
import { StateBadge, type Tone } from "../jobs/job-parts";
import { CONSOLE_PATHS, consoleHref, message, page } from "../pages";
import { Figures, Notice, Section } from "../ui/parts";
import { utcSecond } from "../ui/time";
import { EventRows } from "./webhook-rows";

/** The log's filters, by the word in its address, and the state each shows. */
const FILTERS = { waiting: "pending", failed: "failed", delivered: "delivered" } as const;
type Filter = keyof typeof FILTERS;
const isFilter = (value: string | null): value is Filter => value !== null && Object.hasOwn(FILTERS, value);

/** Where the address asks the log to start: the newest, or older or newer than an event; null when no link makes it. */
function logPosition(params: URLSearchParams): LogPosition | null {
  const [older, newer] = [params.get("older"), params.get("newer")];
  if (older !== null && newer !== null) return null;
  const cursor = older ?? newer;
  if (cursor === null) return { kind: "newest" };
  return LOG_CURSOR.test(cursor) ? { kind: older !== null ? "older" : "newer", cursor } : null;
}

/** Newest, Newer and Older: each keeps the filter, and names the event it continues from. */
function Pager({ log, chosen }: { log: LogPage; chosen: Filter | null }) {
  const [first, last] = [log.events[0], log.events[log.events.length - 1]];
  const href = (at: Record<string, string>) => consoleHref(CONSOLE_PATHS.webhooks, { show: chosen, ...at });
  if (!(log.newer && first) && !(log.older && last)) return null;
  return (
    <nav className="pages" aria-label="Pages">
      {log.newer && first ? <a href={href({})}>Newest</a> : null}
      {log.newer && first ? (
        <a href={href({ newer: first.cursor })} rel="prev">
          Newer
        </a>
      ) : null}
      {log.older && last ? (
        <a href={href({ older: last.cursor })} rel="next">
          Older
        </a>
      ) : null}
    </nav>
  );
}

/** One of the page's buttons: a form of its own with its action. */
function Action({ action, quiet, children }: { action: string; quiet?: boolean; children: string }) {
  return (
    <form method="post" action={CONSOLE_PATHS.webhooks} className="inline">
      <input type="hidden" name="action" value={action} />
      <button type="submit" className={quiet ? "quiet" : undefined}>
        {children}
      </button>
    </form>
  );
}

/** Whether deliveries work, in a badge and a sentence, with what the team can do about it. */
function Deliveries({
  config,
  health,
  target,
}: {
  config: ServerConfig;
  health: Awaited<ReturnType<typeof webhookHealth>> | null;
  target: { pausedAt: string | null; pausedReason: string | null };
}) {
  if (!config.webhook || !health)
    return <p className="note">Off: set WEBHOOK_URL and WEBHOOK_SECRET to send the list's changes to another tool.</p>;
  const [label, tone]: [string, Tone] =
    health.state === "paused" ? ["Paused", "warn"] : health.state === "failing" ? ["Failing", "bad"] : ["On", "good"];
  const heard = health.state !== "ok" && health.lastAnswer ? ` Last answer: ${health.lastAnswer}.` : "";
  const why =
    health.state === "paused"
      ? `Paused since ${utcSecond(target.pausedAt ?? "")} UTC: ${target.pausedReason ?? "paused"}. Nothing is sent until deliveries are re-enabled.`
      : health.state === "failing"
        ? `Failing: ${health.why}.${heard}`
        : "";
  return (
    <>
      <p className="job-state">
        <StateBadge tone={tone}>{label}</StateBadge> Events go to <code>{shownWebhookUrl(config.webhook.url)}</code>{" "}
        (the rest of WEBHOOK_URL is not shown: it may hold a secret), signed with WEBHOOK_SECRET.
      </p>
      {why ? <Notice tone={health.state === "paused" ? "warn" : "error"}>{why}</Notice> : null}
    </>
  );
}

export async function webhooksPage(
  store: Store,
  config: ServerConfig,
  admin: string,
  notice = "",
  params = new URLSearchParams(),
): Promise<Response> {
  const hooks = store.of(createWebhookStore);
  const show = params.get("show");
  const position = logPosition(params);
  if (!position) {
    return message(400, "That place in the log doesn't exist", "Start again from the webhook log's first page.", admin);
  }
  // Named "chosen": Tailwind reads every file under src/ for class names, and the bare English word for it is a
  // utility that adds fifteen @property rules to every public page's CSS (/product went past its first round trip).
  const chosen = isFilter(show) ? show : null;
  const [state, counts, log, health] = await withTimeout(
    Promise.all([
      hooks.state(),
      hooks.counts(),
      readLogPage(store.db, chosen ? FILTERS[chosen] : null, position),
      config.webhook ? webhookHealth(store) : null,
    ]),
    config.dbTimeoutMs,
  );
  return page(
    200,
    "Webhooks",
    <>
      <h1>Webhooks</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <DeliveriesSection config={config} health={health} state={state} counts={counts} />
      <Section id="recent" title="Events, newest first">
        <ShowTabs chosen={chosen} counts={counts} />
        {log.events.length > 0 ? (
          <EventRows events={log.events} store={store} now={new Date()} />
        ) : (
          <p className="note">{chosen ? `No ${chosen} events.` : "No events yet."}</p>
        )}
        <Pager log={log} chosen={chosen} />
      </Section>
    </>,
    admin,
    {},
    { area: "webhooks" },
  );
}

type Counts = Awaited<ReturnType<WebhookStore["counts"]>>;

/** Where events go, how many wait, were delivered or failed, and the actions on them. */
function DeliveriesSection(props: {
  config: ServerConfig;
  health: WebhookHealth | null;
  state: Awaited<ReturnType<WebhookStore["state"]>>;
  counts: Counts;
}) {
  const { config, counts } = props;
  const paused = props.state.pausedAt !== null;
  return (
    <Section id="state" title="Deliveries">
      <Deliveries config={config} health={props.health} target={props.state} />
      <Figures
        className="totals"
        items={[
          ["Waiting", counts.pending.toLocaleString("en")],
          ["Delivered", counts.delivered.toLocaleString("en")],
          ["Failed", counts.failed.toLocaleString("en")],
        ]}
      />
      {config.webhook ? (
        <div className="row actions">
          {paused ? <Action action="resume">Re-enable deliveries</Action> : null}
          {!paused && counts.pending > 0 ? <Action action="drain">Deliver everything waiting now</Action> : null}
          <Action action="test" quiet>
            Send a test event
          </Action>
        </div>
      ) : null}
    </Section>
  );
}

/** The log's tabs: all, waiting, failed, delivered, with their counts. */
function ShowTabs({ chosen, counts }: { chosen: Filter | null; counts: Counts }) {
  const tab = (word: Filter | null, label: string) => (
    <li>
      <a href={consoleHref(CONSOLE_PATHS.webhooks, { show: word })} aria-current={word === chosen ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <nav aria-label="Show">
      <ul className="tabs">
        {tab(null, "All")}
        {tab("waiting", `Waiting (${counts.pending})`)}
        {tab("failed", `Failed (${counts.failed})`)}
        {tab("delivered", `Delivered (${counts.delivered})`)}
      </ul>
    </nav>
  );
}
