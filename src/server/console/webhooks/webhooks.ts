/**
 * The delivery log's actions (POST /admin/webhooks, action=…; the page is webhook-log.tsx's): "Retry now" for one
 * event (its notice says what it did: nothing for an unknown or delivered event), "Deliver everything waiting now"
 * (every waiting event due, delivered in the background: jobs.ts), "Send a test event", and "Re-enable
 * deliveries" after a 410. Each is audited and answers with a redirect whose fixed word names the notice.
 */
import { auditStart } from "../../audit";
import type { ServerConfig } from "../../config";
import { seeOther } from "../../http/responses";
import type { Store } from "../../store/types";
import { createWebhookStore, deliverNow } from "../../webhooks";
import type { WebhookStore } from "../../webhooks/store";
import { type JobDeps, jobPath, startJob } from "../jobs/jobs";
import { CONSOLE_PATHS, message } from "../pages";
import { adminIdentity } from "../sign-in/identity";

export { webhooksPage } from "./webhook-log";

/** What each action is given. */
interface HookAction {
  store: Store;
  config: ServerConfig;
  admin: string;
  fields: Record<string, string>;
  visit: { origin: string; deps: JobDeps };
  hooks: WebhookStore;
}

export async function webhooksAction(
  store: Store,
  config: ServerConfig,
  admin: string,
  fields: Record<string, string>,
  visit: { origin: string; deps: JobDeps },
) {
  const action = fields["action"] ?? "";
  // Own keys only: "toString" is not an action.
  const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!run) return message(400, "Webhooks", "Use the page's buttons.", admin);
  return run({ store, config, admin, fields, visit, hooks: store.of(createWebhookStore) });
}

const ACTIONS: Record<string, (given: HookAction) => Promise<Response>> = {
  /** Retry now: one event, at once; the notice says what became of it. */
  async retry({ store, config, admin, fields, hooks }) {
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
  },
  /** Deliver everything waiting now: a background job with its own page. */
  async drain({ store, config, admin, visit, hooks }) {
    if (!config.webhook) return message(400, "Webhooks", "Webhooks are off.", admin);
    if ((await hooks.state()).pausedAt) {
      const said = "Deliveries are paused: re-enable them first, then deliver what is waiting.";
      return message(409, "Webhooks", said, admin);
    }
    const logId = (await adminIdentity(config, store)).logId(admin);
    const entry = await auditStart(store.db, admin, "webhooks-drain");
    const drain = await hooks.drain(logId);
    await entry.end({ drain: drain.id, waiting: drain.total });
    await startJob({ store, config, admin, origin: visit.origin, logId, deps: visit.deps }, "webhooks", drain.id);
    return seeOther(`${jobPath("webhooks", drain.id)}&done=started`);
  },
  async test({ store, config, admin, hooks }) {
    if (!config.webhook) return message(400, "Webhooks", "Webhooks are off.", admin);
    const entry = await auditStart(store.db, admin, "webhook-test");
    const id = await hooks.test();
    await entry.end({ event: id });
    await deliverNow(store, config, "console", 15_000);
    return seeOther(`${CONSOLE_PATHS.webhooks}?done=test`);
  },
  async resume({ store, config, admin, hooks }) {
    const entry = await auditStart(store.db, admin, "webhooks-resume");
    await hooks.resume();
    await entry.end();
    await deliverNow(store, config, "console", 15_000);
    return seeOther(`${CONSOLE_PATHS.webhooks}?done=resume`);
  },
};

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
