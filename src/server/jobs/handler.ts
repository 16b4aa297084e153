/**
 * The background function's handler (netlify/functions/jobs-background.ts): it runs one job, named by a request
 * only the product can make (jobs/signed.ts: signed by the server's secret, a minute's life, used once), until
 * RUN_MS of its 15 minutes have passed, then starts its own successor with a new signed request and ends. Any
 * other request is answered 401 and changes nothing. A second start of a job that a live run holds (a double
 * click, two tabs, a replay with a new nonce: there is none without the secret) finds the lease taken and ends: one
 * run. The platform answers the caller 202 before this runs; what this returns is for the logs (and tests).
 */
import type { Context } from "@netlify/functions";
import { jobStartKey } from "../crypto/keys";
import type { RootKey } from "../crypto/secret";
import type { ServerDeps } from "../deps";
import { siteOrigin } from "../http/origin";
import { describeError, log } from "../log";
import type { Mailer } from "../mail/mailer";
import { httpJobStarter, type JobStarter } from "./dispatch";
import { type JobTable, type Outcome, settled } from "./runner";
import { SIGNATURE_HEADER, verifyJobStart } from "./signed";

/**
 * A run's share of the platform's 15 minutes: 13, leaving room for the message in flight when it ends (the
 * mailer's timeouts: 40 s at worst), the release, and the successor's start.
 */
export const RUN_MS = 13 * 60_000;
/** The most a start's body may be: it names a job (the platform itself refuses a background request over 256 KB). */
const MAX_START_BYTES = 1024;

export interface BackgroundDeps extends ServerDeps {
  /** Each kind's runner (src/server/app/jobs.ts: JOBS). */
  jobs: JobTable;
  /** How a run starts its successor (default: a signed POST to the site's own background function). */
  start?: (origin: string, root: RootKey) => JobStarter;
  /** A run's time (RUN_MS; tests shorten it). */
  runMs?: number;
  now?: () => number;
  mailer?: (config: ReturnType<ServerDeps["config"]>) => Mailer | null;
}

/** Said with a refusal while SERVER_SECRET is not set: the likely cause, a start from another process. */
const NO_SECRET = {
  fix: "set SERVER_SECRET: without it a job start is accepted only from the process that signed it, so a deployed site's jobs do not start",
};

const refused = () => new Response("Unauthorized\n", { status: 401, headers: { "content-type": "text/plain" } });

export function createBackgroundHandler(deps: BackgroundDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "POST") return refused();
    const body = await req.text();
    if (body.length > MAX_START_BYTES) return refused();
    const config = deps.config();
    const store = await deps.store();
    // SERVER_SECRET's key, never the database's (a copy of it could start the site's jobs): crypto/keys.ts.
    const root = jobStartKey(config);
    const verdict = await verifyJobStart(store.db, root, body, req.headers.get(SIGNATURE_HEADER));
    if ("refused" in verdict) {
      log("warn", "jobs.start_refused", { reason: verdict.refused, ...(config.serverSecret ? {} : NO_SECRET) });
      return refused();
    }
    const { kind, id } = verdict.start;
    const now = deps.now ?? Date.now;
    const origin = siteOrigin(config, context, req);
    const mailer = deps.mailer?.(config) ?? undefined;
    let outcome: Outcome;
    try {
      outcome = await settled(kind, deps.jobs[kind].run)(id, {
        store,
        config,
        origin,
        deadline: now() + (deps.runMs ?? RUN_MS),
        ...(mailer ? { mailer } : {}),
        ...(deps.now ? { now: deps.now } : {}),
      });
    } catch (error) {
      // The job waits in the database (released, or soon stale): the scheduler starts it again.
      log("error", "jobs.run_failed", { kind, id, ...describeError(error) });
      return new Response(null, { status: 500 });
    }
    log("info", "jobs.run_ended", { kind, id, outcome });
    if (outcome === "more") await (deps.start ?? ((o, r) => httpJobStarter(o, r)))(origin, root)(kind, id);
    return new Response(null, { status: 202 });
  };
}
