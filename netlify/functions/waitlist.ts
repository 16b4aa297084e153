// First: React loads its production build (react-production.ts says why).
import "../../src/server/app/react-production";
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createWaitlistHandler } from "../../src/server/signup/handler";
import { withWebhooks } from "../../src/server/webhooks";

/** POST /api/waitlist (the pipeline is src/server/signup/handler.ts), on the process's store and configuration. */
const deps = { store: getStore, config: getConfig };
// After a change is answered, its webhook goes at once (src/server/webhooks/).
// A refused form post is answered with /join again, filled (src/server/signup/join-refusal.tsx): the built page
// ships beside this module as for join-page.ts (netlify.toml's included_files).
const joinPage = new URL("../../dist/join.html", import.meta.url);
export default configured(withWebhooks(createWaitlistHandler(deps, { joinPage }), deps));

export const config: Config = {
  path: "/api/waitlist",
  // Netlify's edge limit only stops raw floods: 600 requests a minute per IP and domain lets 200 people behind
  // one address sign up in the same minute (each at most two requests: the allowance's 429, then the proof).
  // The free allowance (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, in Postgres) is enforced above.
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
