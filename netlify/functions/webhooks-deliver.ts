/**
 * Every minute: delivers the webhook events that are due (first tries a change's answer did not finish, and every
 * retry on its schedule), every attempt ended within 25 of a scheduled function's 30 s, counted from the
 * invocation's start (opening the store included): deliverDue starts an attempt only while its whole timeout fits.
 */
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { describeError, log } from "../../src/server/log";
import { deliverNow, recordWebhookEvents } from "../../src/server/webhooks";

/** The run's share of a scheduled function's 30 s: the rest is room for recording and answering. */
const RUN_MS = 25_000;

export default configured(async (): Promise<Response> => {
  const started = Date.now();
  const config = getConfig();
  try {
    // Webhooks unset here: nothing to deliver. Recording stays as it is: another deployment on this database may
    // deliver them (src/server/webhooks/index.ts, recordWebhookEvents).
    if (!config.webhook) return new Response(null, { status: 204 });
    const store = await getStore();
    // Said again every minute, not only once per instance: an operator's `webhooks off` run while a deployment
    // still has WEBHOOK_URL is undone within a minute (one guarded UPDATE that writes nothing when it is on).
    await recordWebhookEvents(store);
    await deliverNow(store, config, "scheduled", RUN_MS - (Date.now() - started));
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "webhooks.scheduled_failed", describeError(error));
    return new Response(null, { status: 503 });
  }
});

export const config: Config = { schedule: "* * * * *" };
