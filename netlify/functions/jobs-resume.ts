/**
 * Every minute: starts again, in the background, every long job whose run died or ended without a successor
 * (src/server/jobs/resume.ts). Each start is one signed POST; the runs themselves are the background
 * function's, so this ends in well under a scheduled function's 30 s.
 */
import type { Config, Context } from "@netlify/functions";
import { configured } from "../../src/server/app/configured";
import { getStore } from "../../src/server/app/instance";
import { JOBS } from "../../src/server/app/jobs";
import { getConfig } from "../../src/server/config";
import { jobStartKey } from "../../src/server/crypto/keys";
import { siteOrigin } from "../../src/server/http/origin";
import { httpJobStarter, resumeJobs } from "../../src/server/jobs";
import { describeError, log } from "../../src/server/log";

export default configured(async (req: Request, context: Context): Promise<Response> => {
  try {
    const store = await getStore();
    const origin = siteOrigin(getConfig(), context, req);
    await resumeJobs(store, httpJobStarter(origin, jobStartKey(getConfig())), JOBS);
    return new Response(null, { status: 204 });
  } catch (error) {
    log("error", "jobs.resume_failed", describeError(error));
    return new Response(null, { status: 503 });
  }
});

export const config: Config = { schedule: "* * * * *" };
