/**
 * Every minute: delivers the webhook events that are due (first tries a change's answer did not finish, and every
 * retry on its schedule), within 25 of a scheduled function's 30 s (src/server/webhooks/).
 */
import type { Config } from "@netlify/functions";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { describeError, log } from "../../src/server/log";
import { deliverNow, syncWebhooks } from "../../src/server/webhooks";

export default async (): Promise<Response> => {
  const config = getConfig();
  try {
    // Webhooks unset (or unset since): the database stops recording events for nobody.
    if (!config.webhook) {
      await syncWebhooks(await getStore(), config);
      return new Response(null, { status: 204 });
    }
    await deliverNow(await getStore(), config, "scheduled", 25_000);
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "webhooks.scheduled_failed", describeError(error));
    return new Response(null, { status: 503 });
  }
};

export const config: Config = { schedule: "* * * * *" };
