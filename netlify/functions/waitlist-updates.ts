/**
 * POST /waitlist/updates (a person's choice, from their status page) and POST /waitlist/unsubscribe (an update's
 * one-click unsubscribe, RFC 8058): src/server/updates/handler.ts. GET /waitlist/unsubscribe is the built page,
 * filled for a real link with where its person stands (stopped already: "Send me updates again"); a GET changes
 * nothing. The pages it answers with ship beside this module (netlify.toml).
 */
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createUpdatesHandler } from "../../src/server/updates/handler";
import { withWebhooks } from "../../src/server/webhooks";

const deps = { store: getStore, config: getConfig };
export default configured(
  withWebhooks(
    createUpdatesHandler(deps, {
      unsubscribed: new URL("../../dist/waitlist/unsubscribed.html", import.meta.url),
      unsubscribe: new URL("../../dist/waitlist/unsubscribe.html", import.meta.url),
    }),
    deps,
  ),
);

export const config: Config = {
  path: ["/waitlist/updates", "/waitlist/unsubscribe"],
  method: ["GET", "POST"],
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
