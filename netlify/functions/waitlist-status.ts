/**
 * GET /waitlist/status?token=…: a person's private status page; its POST leaves the list
 * (src/server/referrals/status-handler.ts). The built page ships beside this module
 * (netlify.toml's included_files for this function), at the same place relative to it as in the repository.
 */
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createStatusHandler } from "../../src/server/referrals/status-handler";
import { withWebhooks } from "../../src/server/webhooks";

const deps = { store: getStore, config: getConfig };
export default configured(
  withWebhooks(
    createStatusHandler(deps, {
      status: new URL("../../dist/waitlist/status.html", import.meta.url),
    }),
    deps,
  ),
);

export const config: Config = {
  path: "/waitlist/status",
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
