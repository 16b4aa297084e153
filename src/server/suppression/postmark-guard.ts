/**
 * Nobody can guess at the Postmark webhook's password: failed attempts are counted per network (an IPv4 address,
 * an IPv6 /64) under the allowance the console's sign-in has (RATE_LIMIT_MAX a RATE_LIMIT_WINDOW_SECONDS window), in
 * the allowance's own table (store/allowance.ts), and past it the network is answered 429 with Retry-After before
 * its guess is even compared. Only failures count: Postmark's own deliveries, however many, never use it up. There
 * is no total across networks: it would let anyone shut Postmark's deliveries out, while a 24-character password
 * (config/reputation.ts) at ten guesses a network a window is out of any botnet's reach.
 */
import type { Context } from "@netlify/functions";
import type { ServerConfig } from "../config";
import { rootKey } from "../crypto/secret";
import { clientKey, comeBackLater, rateWindow } from "../http/rate-limit";
import { json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import type { RateCount, Store } from "../store/types";
import { basicAuthorized } from "./postmark";

/** Kept apart from every other allowance's counters. */
const PREFIX = "postmark:";

export interface PostmarkGuard {
  credentials: { user: string; password: string };
  config: ServerConfig;
  store: () => Promise<Store>;
  now: number;
}

/**
 * Null when the request carries the right user and password; else the answer: 429 (with Retry-After) once this
 * network is past its failed attempts, 401 for wrong or missing credentials, 503 when the database cannot say
 * (Postmark retries it).
 */
export async function guardPostmark(
  req: Request,
  context: Pick<Context, "ip"> | undefined,
  guard: PostmarkGuard,
): Promise<Response | null> {
  try {
    return await judge(req, context?.ip ?? "", guard);
  } catch (error) {
    log("error", "mail_events.failed", { provider: "postmark", ...describeError(error) });
    return json(503, { error: "Not recorded now: send it again later." }, { "Retry-After": "60" });
  }
}

async function judge(req: Request, ip: string, { credentials, config, store, now }: PostmarkGuard) {
  const window = rateWindow(config, now);
  const ms = config.dbTimeoutMs;
  const opened = await withTimeout(store(), ms);
  const key = `${PREFIX}${clientKey(ip, await withTimeout(rootKey(config, opened), ms))}`;
  const tooMany = (count: RateCount) => {
    log("warn", "mail_events.rate_limited", { provider: "postmark" });
    const { headers } = comeBackLater(count.retryAfter, "Wrong passwords");
    return json(
      429,
      { error: "Too many wrong passwords have been tried: try again after Retry-After seconds." },
      headers,
    );
  };
  // Past the allowance already: answered before the password is looked at, so a guess past it is never evaluated.
  const before = await withTimeout(opened.peek(key, window, config.rateLimitMax), ms);
  if (!before.allowed) return tooMany(before);
  if (basicAuthorized(req.headers.get("authorization"), credentials.user, credentials.password)) return null;
  // The answer is the verdict of the statement that counted this failure: of many guesses in flight at once, only
  // the allowance is ever answered 401.
  const failed = await withTimeout(opened.hit(key, window, config.rateLimitMax), ms);
  if (!failed.allowed) return tooMany(failed);
  log("warn", "mail_events.refused", { provider: "postmark", status: 401 });
  return json(401, { error: "Not authorized: HTTP Basic with the webhook's user and password." });
}
