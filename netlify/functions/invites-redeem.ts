import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createRedeemHandler } from "../../src/server/invitations/redeem-handler";
import { withWebhooks } from "../../src/server/webhooks";

/** POST /api/invites/redeem (src/server/invitations/redeem-handler.ts), for the product's sign-up page. */
const deps = { store: getStore, config: getConfig };
// After a change is answered, its webhook goes at once (src/server/webhooks/).
export default configured(withWebhooks(createRedeemHandler(deps), deps));

export const config: Config = {
  path: "/api/invites/redeem",
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
