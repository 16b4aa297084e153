/**
 * What the sign-up function's own suites (tests/integration/signup/) share: the process's store on a fresh embedded
 * database for the file, with an allowance of 1000 (these suites post many times), and calls to the function as
 * Netlify makes them, each from a new address so the rate limit stays out of the way unless a test wants it.
 */
import { afterAll, beforeAll } from "vitest";
import handler from "../../netlify/functions/waitlist";
import { getStore } from "../../src/server/app/instance";
import { fakeContext, releaseEmbeddedStore, useEmbeddedStore } from "./helpers";

/** Registers the file's hooks (its folder named from `prefix`) and returns the call and the count of rows. */
export function signupSuite(prefix: string) {
  beforeAll(() => useEmbeddedStore(prefix, 1000), 60_000);
  afterAll(releaseEmbeddedStore);
  let calls = 0;
  return {
    /** The function's answer to `request` from `ip` (by default the next of 250 addresses, in turn). */
    call: (request: Request, ip = `198.51.100.${++calls % 250}`) => handler(request, fakeContext(ip)),
    rowCount: async () => (await getStore()).count(),
  };
}
