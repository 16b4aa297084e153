import type { Config, Context } from "@netlify/functions";
import { toEntry } from "../../src/lib/waitlist/entry";
import { HONEYPOT_FIELD } from "../../src/lib/waitlist/rules";
import { loadValidator } from "../../src/lib/waitlist/schema";
import { getConfig } from "../../src/server/config";
import { isDryRun } from "../../src/server/db/connection";
import { formErrorPage, formSuccess } from "../../src/server/form-page";
import { BodyTooLargeError, json, readText, withTimeout } from "../../src/server/http";
import { describeError, log } from "../../src/server/log";
import { clientKey, rateWindow } from "../../src/server/rate-limit";
import { FormEncodingError, isCrossSite, parseForm } from "../../src/server/request-checks";
import { getStore } from "../../src/server/store-instance";

/** 16 KiB: ten times the largest valid sign-up. */
const MAX_BODY = 16 * 1024;
const ACCEPTED = { ok: true } as const;
const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";

/** The fields of a form post (the /join page without JavaScript); a checked box counts as `true`. */
function formFields(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = parseForm(text);
  fields["termsAccepted"] = ["on", "true"].includes(String(fields["termsAccepted"] ?? ""));
  return fields;
}

/** Answers in the caller's language: JSON for the dialog, a redirect or a small HTML page for a form post. */
function answer(form: boolean) {
  return {
    accepted: () => (form ? formSuccess() : json(201, ACCEPTED)),
    error: (status: number, error: string, headers: Record<string, string> = {}) => {
      if (!form) return json(status, { error }, headers);
      const page = formErrorPage(status, status === 400 ? "Please check the form" : "Please try again", error);
      for (const [name, value] of Object.entries(headers)) page.headers.set(name, value);
      return page;
    },
  };
}

/**
 * POST /api/waitlist: method → content type → origin → size → parse → validate → rate limit + store → respond.
 * JSON from the dialog gets JSON; a form post from /join (no JavaScript) gets a 303 to /join/thanks or a page.
 * Every parsed attempt counts against the client's rate limit, valid or not; a valid one is counted and
 * stored in a single statement. A repeated address, and a bot caught by the honeypot, get exactly the answer
 * of a new sign-up, so the API never reveals who is on the list or what tripped a filter.
 */
export default async (req: Request, context: Context): Promise<Response> => {
  if (req.method !== "POST") {
    return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
  }
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== JSON_TYPE && type !== FORM_TYPE) {
    return json(415, { error: `Content-Type must be ${JSON_TYPE} (or ${FORM_TYPE} from the /join form).` });
  }
  const form = type === FORM_TYPE;
  const reply = answer(form);
  // Another site's page may not sign its visitors up (a form post needs no CORS): refused before reading.
  if (isCrossSite(req)) return reply.error(403, "Sign-ups are accepted from this site only.");

  let text: string;
  try {
    text = await readText(req, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return reply.error(413, "Request body is too large.");
    return reply.error(400, "Request body is not valid UTF-8.");
  }

  let body: unknown;
  try {
    body = form ? formFields(text) : JSON.parse(text);
  } catch (error) {
    if (error instanceof FormEncodingError) return reply.error(400, error.message);
    return json(400, { error: "Request body is not valid JSON." });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(400, { error: "Request body must be a JSON object." });
  }
  const fields = body as Record<string, unknown>;
  const honeypot = fields[HONEYPOT_FIELD];
  const caught = honeypot !== undefined && honeypot !== null && honeypot !== "";
  const result = (await loadValidator())(fields);

  const config = getConfig();
  // Deploy previews and branch deploys write only to a database of their own (Netlify Database's preview
  // branch, or ALLOW_PREVIEW_WRITES=1); with a shared DATABASE_URL they are dry runs.
  const deployContext = (context as Partial<Context>).deploy?.context;
  if (isDryRun(deployContext, config)) {
    log("info", "waitlist.preview_dry_run", { context: deployContext, valid: result.ok });
    if (!result.ok) return reply.error(400, result.message);
    const response = reply.accepted();
    response.headers.set("X-Waitlist-Dry-Run", deployContext ?? "");
    return response;
  }
  const window = rateWindow(config);
  const key = clientKey(context.ip ?? "", config);
  try {
    // Opening the store is not timed: locally, a new embedded database runs initdb (seconds) once.
    const store = await getStore();
    return await withTimeout(
      (async () => {
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
          return reply.error(
            429,
            `Too many sign-up attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
            { "Retry-After": String(window.retryAfterSeconds) },
          );
        }
        if (caught) {
          log("info", "waitlist.honeypot");
          return reply.accepted();
        }
        return result.ok ? reply.accepted() : reply.error(400, result.message);
      })(),
      config.dbTimeoutMs,
    );
  } catch (error) {
    log("error", "waitlist.store_failed", describeError(error));
    return reply.error(503, "The waitlist is unavailable right now. Please try again.");
  }
};

export const config: Config = {
  path: "/api/waitlist",
  // First line of defence, at Netlify's edge: 30 requests a minute per IP and domain. The finer limit
  // (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, in Postgres) is enforced above.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
