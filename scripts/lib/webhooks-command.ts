/**
 * `npm run waitlist -- webhooks [off]`: deliver every waiting webhook event now, as the every-minute function does
 * (and say what happened), or stop recording events in this database (`off`, for a list whose deployments no longer
 * send them). Exit code 1 while any event is left to try again, failed or paused by a 410.
 */
import type { Store } from "../../src/server/app/store";
import type { ServerConfig } from "../../src/server/config";
import { deliverNow, missingWebhookKeys, recordWebhookEvents, stopWebhookEvents } from "../../src/server/webhooks";

export interface WebhooksCommand {
  store: Store;
  config: ServerConfig;
  source: string;
  off: boolean;
  counts: Record<string, unknown>;
  /** Starts the command's audit entry, once it is known to act. */
  starting: (action: string) => Promise<void>;
  fail: (message: string) => never;
}

export async function webhooks(command: WebhooksCommand): Promise<number> {
  const { store, config, source, counts, starting } = command;
  if (command.off) {
    await starting("webhooks-off");
    const stopped = await stopWebhookEvents(store, config);
    console.log(
      stopped
        ? `Webhook events are no longer recorded in ${source}; a process with WEBHOOK_URL switches recording on again.`
        : "WEBHOOK_URL is set for this command: nothing was changed.",
    );
    return 0;
  }
  // Before any claim: an event this process cannot open (sealed under a key it does not hold, its row removed or
  // sealed again since) would only be given back, and the run would say nothing useful.
  const missing = await missingWebhookKeys(store);
  if (missing.length > 0) {
    command.fail(
      `waiting webhook events are sealed under key ${missing.join(", ")}, but ${config.dataKeys ? "DATA_KEY (and DATA_KEY_PREVIOUS) is another key" : "DATA_KEY is not set"}: set the key they were sealed with. Nothing was sent.`,
    );
  }
  await starting("webhooks-deliver");
  // As every delivery run does: a process that delivers them has events recorded (webhooks/index.ts).
  await recordWebhookEvents(store);
  const report = await deliverNow(store, config, "cli");
  Object.assign(counts, { delivered: report?.delivered ?? 0, retrying: report?.retrying ?? 0 });
  console.log(
    `Webhooks in ${source}: ${report?.delivered ?? 0} delivered, ${report?.retrying ?? 0} to be tried again, ${report?.failed ?? 0} failed for good${report?.gone ? "; the receiver answered 410 Gone: deliveries are paused until re-enabled in the console" : ""}.`,
  );
  return report && (report.retrying > 0 || report.failed > 0 || report.gone) ? 1 : 0;
}
