import type { Config } from "@netlify/functions";
import { getConfig } from "../../src/server/config";
import { createExportHandler } from "../../src/server/export/handler";
import { getStore } from "../../src/server/store/instance";

/** GET /api/waitlist/export (src/server/export/handler.ts), on the process's store and configuration. */
export default createExportHandler({ store: getStore, config: getConfig });

export const config: Config = { path: "/api/waitlist/export" };
