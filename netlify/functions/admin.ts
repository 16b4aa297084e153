// First: React loads its production build (react-production.ts says why).
import "../../src/server/app/react-production";
import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createConsoleHandler } from "../../src/server/console/handler";
import { withWebhooks } from "../../src/server/webhooks";

/** The operators' console, /admin and its forms (src/server/console/handler.ts). */
const deps = { store: getStore, config: getConfig };
export default configured(withWebhooks(createConsoleHandler(deps), deps));

// Literal paths: Netlify reads this object without running the module (CONSOLE_PATHS in console/paths.ts names the same).
export const config: Config = {
  path: [
    "/admin",
    "/admin/sign-in",
    "/admin/sign-in/confirm",
    "/admin/sign-out",
    "/admin/people",
    "/admin/people/selected",
    "/admin/people/import",
    "/admin/people/import/start",
    "/admin/people/import/refused.csv",
    "/admin/funnel.csv",
    "/admin/invite",
    "/admin/waves",
    "/admin/remove",
    "/admin/export",
    "/admin/export/part",
    "/admin/updates",
    "/admin/updates/mail",
    "/admin/jobs",
    "/admin/webhooks",
    "/admin/audit",
    "/admin/person",
  ],
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
