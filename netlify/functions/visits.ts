import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createVisitHandler } from "../../src/server/visits/handler";

/** /api/visit: a public page's view, counted without cookies (the pipeline is src/server/visits/handler.ts). */
export default configured(createVisitHandler({ store: getStore, config: getConfig }));

export const config: Config = {
  // Literal, as Netlify reads it from the source: VISIT_PATH in src/lib/visits/pages.ts (a test keeps them equal).
  path: "/api/visit",
  // The sign-ups' edge limit: 600 requests a minute per address and domain, far above a person's page views, so a
  // flood of beacons is cut at the edge before it reaches the database.
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
