import type { Config } from "@netlify/functions";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createRedeemHandler } from "../../src/server/invitations/redeem-handler";

/** POST /api/invites/redeem (src/server/invitations/redeem-handler.ts), for the product's sign-up page. */
export default createRedeemHandler({ store: getStore, config: getConfig });

export const config: Config = {
  path: "/api/invites/redeem",
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
