/**
 * Starting a job in the background: a signed POST (signed.ts) to the background function, which Netlify answers
 * 202 at once and runs for up to 15 minutes. Used by the console after the operator's confirmation, by a run that
 * continues itself before its time ends, and by the every-minute scheduler for a run that died. A start that fails
 * (the network, the platform) loses nothing: the job waits in the database, and the scheduler starts it within a
 * minute or two.
 */

import type { RootKey } from "../crypto/secret";
import { describeError, log } from "../log";
import type { JobKind } from "./lease";
import { SIGNATURE_HEADER, signJobStart } from "./signed";

/** The background function's name (netlify/functions/jobs-background.ts) and so its path. */
export const BACKGROUND_FUNCTION = "jobs-background";
export const BACKGROUND_PATH = `/.netlify/functions/${BACKGROUND_FUNCTION}`;

/** Starts a job; resolves to whether the platform took the request (a 202). Never throws. */
export type JobStarter = (kind: JobKind, id: number) => Promise<boolean>;

/** The request that starts job `id` of `kind` at site `origin`. */
export function jobStartRequest(origin: string, root: RootKey, kind: JobKind, id: number, now = Date.now()): Request {
  const { body, signature } = signJobStart(root, kind, id, now);
  return new Request(new URL(BACKGROUND_PATH, origin), {
    method: "POST",
    headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature },
    body,
  });
}

/** A starter that POSTs to the site's own background function (`fetcher`: fetch, or a test's). */
export function httpJobStarter(origin: string, root: RootKey, fetcher: typeof fetch = fetch): JobStarter {
  return async (kind, id) => {
    try {
      const response = await fetcher(jobStartRequest(origin, root, kind, id), { signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      if (response.status === 202) return true;
      log("warn", "jobs.start_refused", { kind, id, status: response.status });
      return false;
    } catch (error) {
      log("warn", "jobs.start_failed", { kind, id, ...describeError(error) });
      return false;
    }
  };
}
