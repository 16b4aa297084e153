import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createLinksHandler } from "../../src/server/links/handler";
import { withWebhooks } from "../../src/server/webhooks";

/**
 * The POSTs of the pages an e-mail links to (src/server/links/handler.ts). Only POST: a GET of the same path is
 * the static page with the button, so a mail scanner following a link changes nothing.
 */
const deps = { store: getStore, config: getConfig };
// After a change is answered, its webhook goes at once (src/server/webhooks/).
export default configured(withWebhooks(createLinksHandler(deps), deps));

export const config: Config = {
  path: ["/waitlist/confirm", "/waitlist/leave", "/waitlist/remove"],
  method: "POST",
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
