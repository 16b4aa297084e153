/**
 * Long jobs in the background, above the features: the background function's handler (a signed start runs one
 * job), the scheduler's resumption, and each kind's runner. The lease and the signing are the jobs core's
 * (src/server/jobs/), beneath.
 */
export { type BackgroundDeps, createBackgroundHandler, RUN_MS } from "./handler";
export { resumeJobs } from "./resume";
export { type JobRun, type Outcome, RUNNERS } from "./runners";
