import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createMailEventsHandler } from "../../src/server/suppression/handler";
import { withWebhooks } from "../../src/server/webhooks";

/** POST /api/mail-events/resend: Resend's bounces and complaints (src/server/suppression/). */
const deps = { store: getStore, config: getConfig };
// A suppression's waitlist.suppressed goes out at once (src/server/webhooks/).
export default configured(withWebhooks(createMailEventsHandler(deps, "resend"), deps));

// A literal: Netlify reads a function's config without running it.
export const config: Config = { path: "/api/mail-events/resend" };
