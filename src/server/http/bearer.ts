/**
 * The bearer-token endpoints' guard (the export and the product's redemption): a token too short to stand guessing
 * is refused, and failed attempts are limited per client and in total, so nobody can guess at the token.
 */
import type { Context } from "@netlify/functions";
import type { ServerConfig } from "../config";
import { rootKey } from "../crypto/secret";
import { sameSecret } from "../crypto/tokens";
import { describeError, log } from "../log";
import type { RateCount, Store } from "../store/types";
import { clientKey, comeBackLater, rateWindow } from "./rate-limit";
import { json } from "./responses";
import { withTimeout } from "./timeout";

/**
 * Failed attempts one client (an IPv4 address, an IPv6 /64) may make per window: an operator or the product's
 * server that pastes a stale token a few times still gets through, a script gets ten guesses.
 */
export const BEARER_FAILURES_PER_CLIENT = 10;
/**
 * Failed attempts of all clients together per window, per endpoint: bounds guessing from many networks (a botnet,
 * the /64s of one IPv6 /48) to 100 per window. Past it even the right token waits until the window slides on: a
 * few minutes' outage for the team is the price of a token nobody can be walked up to.
 */
export const BEARER_FAILURES_IN_TOTAL = 100;
/** The window the failures are counted in: ten minutes, so a locked-out operator waits minutes, not hours. */
export const BEARER_WINDOW_SECONDS = 600;

/** The token of an `Authorization: Bearer <token>` header; empty when there is none. */
export function bearerToken(req: Request): string {
  return (
    req.headers
      .get("authorization")
      ?.match(/^Bearer\s+(.+)$/i)?.[1]
      ?.trim() ?? ""
  );
}

/**
 * An endpoint whose token was refused at start (config: too short) answers 503 and logs the reason, which names
 * the variable and how to make a good one; null when the token is usable (or unset: the endpoint's own 404).
 */
export function refusedToken(problem: string | null, event: string): Response | null {
  if (!problem) return null;
  log("error", `${event}_refused`, { reason: problem });
  return json(503, { error: "This endpoint is not set up correctly: the server's log says why." });
}

export interface BearerGuard {
  /** The token the endpoint expects. */
  token: string;
  /**
   * Names the endpoint: its counters (`bearer:<realm>:…`, so guessing at one endpoint's token never locks out the
   * other) and its WWW-Authenticate realm.
   */
  realm: string;
  /** The prefix of the endpoint's log events: `<event>_denied`, `<event>_rate_limited`, `<event>_failed`. */
  event: string;
  /** The endpoint's answer when the database cannot say (503), as its other outages answer. */
  unavailable: string;
  config: ServerConfig;
  store: () => Promise<Store>;
}

/**
 * Null when the request carries the right token; else the answer: 429 (with Retry-After) once this client or all
 * clients together are past their failed attempts, 401 for a wrong token, 503 when the database cannot say.
 * Successful requests count nothing: the product redeems many codes, an export reads many pages.
 */
export async function guardBearer(
  req: Request,
  context: Pick<Context, "ip"> | undefined,
  guard: BearerGuard,
): Promise<Response | null> {
  const { config, realm, event } = guard;
  const window = rateWindow(config, Date.now(), BEARER_WINDOW_SECONDS);
  const ms = config.dbTimeoutMs;
  const tooMany = (over: "client" | "total", count: RateCount) => {
    log("warn", `${event}_rate_limited`, { over });
    // Retry-After only: comeBackLater's sentence speaks of the client's network, which the total is not.
    const { headers } = comeBackLater(count.retryAfter, "Wrong tokens");
    return json(429, { error: "Too many wrong tokens have been tried: try again after Retry-After seconds." }, headers);
  };
  try {
    const store = await guard.store();
    const root = await withTimeout(rootKey(config, store), ms);
    const clientCounter = `bearer:${realm}:${clientKey(context?.ip ?? "", root)}`;
    const totalCounter = `bearer:${realm}:all`;
    // Past the allowance already: answered before the token is looked at, so a guess past it is never evaluated.
    const [client, total] = await withTimeout(
      Promise.all([
        store.peek(clientCounter, window, BEARER_FAILURES_PER_CLIENT),
        store.peek(totalCounter, window, BEARER_FAILURES_IN_TOTAL),
      ]),
      ms,
    );
    if (!client.allowed) return tooMany("client", client);
    if (!total.allowed) return tooMany("total", total);
    if (sameSecret(bearerToken(req), guard.token)) return null;
    // A wrong token counts, and its answer is the verdict of the statement that counted it: of many guesses in
    // flight at once (all past the peek), only the allowance is ever answered 401 (a right one among them is let
    // through: they were compared, so the slack is as wide as the burst). The total counts a client's failure only
    // within the client's own allowance, so one client alone cannot use up everyone's.
    const failed = await withTimeout(store.hit(clientCounter, window, BEARER_FAILURES_PER_CLIENT), ms);
    if (!failed.allowed) return tooMany("client", failed);
    const failedInTotal = await withTimeout(store.hit(totalCounter, window, BEARER_FAILURES_IN_TOTAL), ms);
    if (!failedInTotal.allowed) return tooMany("total", failedInTotal);
    log("warn", `${event}_denied`);
    return json(401, { error: "A valid bearer token is required." }, { "WWW-Authenticate": `Bearer realm="${realm}"` });
  } catch (error) {
    log("error", `${event}_failed`, describeError(error));
    return json(503, { error: guard.unavailable });
  }
}
