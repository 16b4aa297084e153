import type { Config, Context } from "@netlify/functions";
import { toEntry } from "../../src/lib/waitlist/entry";
import { HONEYPOT_FIELD } from "../../src/lib/waitlist/rules";
import { validateSignup } from "../../src/lib/waitlist/schema";
import { getConfig } from "../../src/server/config";
import { BodyTooLargeError, json, readText, withTimeout } from "../../src/server/http";
import { describeError, log } from "../../src/server/log";
import { clientKey, rateWindow } from "../../src/server/rate-limit";
import { getStore } from "../../src/server/store";

/** 16 KiB: ten times the largest valid sign-up. */
const MAX_BODY = 16 * 1024;
const ACCEPTED = { ok: true } as const;

/**
 * POST /api/waitlist: method → content type → size → parse → validate → rate limit + store → respond.
 * Every parsed attempt counts against the client's rate limit, valid or not; a valid one is counted and
 * stored in a single statement. A repeated address, and a bot caught by the honeypot, get exactly the answer
 * of a new sign-up, so the API never reveals who is on the list or what tripped a filter.
 */
export default async (req: Request, context: Context): Promise<Response> => {
  if (req.method !== "POST") {
    return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
  }
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return json(415, { error: "Content-Type must be application/json." });
  }

  let text: string;
  try {
    text = await readText(req, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return json(413, { error: "Request body is too large." });
    return json(400, { error: "Request body is not valid UTF-8." });
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json(400, { error: "Request body is not valid JSON." });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(400, { error: "Request body must be a JSON object." });
  }
  const fields = body as Record<string, unknown>;
  const honeypot = fields[HONEYPOT_FIELD];
  const caught = honeypot !== undefined && honeypot !== null && honeypot !== "";
  const result = validateSignup(fields);

  const config = getConfig();
  const window = rateWindow(config);
  const key = clientKey(context.ip ?? "", config);
  try {
    return await withTimeout(
      (async () => {
        const store = await getStore();
        let attempts: number;
        if (result.ok && !caught) {
          const outcome = await store.hitAndAdd(
            key,
            window.start,
            window.windowMs,
            config.rateLimitMax,
            toEntry(result.value),
          );
          attempts = outcome.attempts;
          if (attempts <= config.rateLimitMax)
            log("info", "waitlist.signup", { added: outcome.added, db: store.db.kind });
        } else {
          attempts = await store.hit(key, window.start, window.windowMs);
        }
        if (attempts > config.rateLimitMax) {
          log("warn", "waitlist.rate_limited", { retryAfter: window.retryAfterSeconds });
          const minutes = Math.ceil(window.retryAfterSeconds / 60);
          return json(
            429,
            { error: `Too many sign-up attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` },
            { "Retry-After": String(window.retryAfterSeconds) },
          );
        }
        if (caught) {
          log("info", "waitlist.honeypot");
          return json(201, ACCEPTED);
        }
        return result.ok ? json(201, ACCEPTED) : json(400, { error: result.message });
      })(),
      config.dbTimeoutMs,
    );
  } catch (error) {
    log("error", "waitlist.store_failed", describeError(error));
    return json(503, { error: "The waitlist is unavailable right now. Please try again." });
  }
};

export const config: Config = {
  path: "/api/waitlist",
  // First line of defence, at Netlify's edge: 30 requests a minute per IP and domain. The finer limit
  // (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, in Postgres) is enforced above.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
