import type { Config } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { getConfig } from "../../src/server/config";
import { createExportHandler } from "../../src/server/export/handler";

/** GET /api/waitlist/export (src/server/export/handler.ts), on the process's store and configuration. */
export default configured(createExportHandler({ store: getStore, config: getConfig }));

export const config: Config = { path: "/api/waitlist/export" };
