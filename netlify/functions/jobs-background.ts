import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { JOBS } from "../../src/server/app/jobs";
import { getConfig } from "../../src/server/config";
import { createBackgroundHandler } from "../../src/server/jobs";

/**
 * A Background Function (the name's `-background`): Netlify answers 202 at once and runs this for up to 15
 * minutes. It runs one long job (an update, a wave, a webhook backlog) from a signed, single-use start only
 * (src/server/jobs/handler.ts), and starts its own successor before its time ends.
 */
export default configured(createBackgroundHandler({ store: getStore, config: getConfig, jobs: JOBS }));
