import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createStatusLinkHandler } from "../../src/server/referrals/link-handler";

/**
 * POST /waitlist/link: mails a listed address the link to its status page (src/server/referrals/link-handler.ts).
 * Only POST: a GET of the same path is the static page with the form.
 */
export default configured(createStatusLinkHandler({ store: getStore, config: getConfig }));

export const config: Config = {
  path: "/waitlist/link",
  method: "POST",
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
