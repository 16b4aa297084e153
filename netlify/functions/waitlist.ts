import type { Config, Context } from "@netlify/functions";
import { toEntry } from "../../src/lib/waitlist/entry";
import { HONEYPOT_FIELD, PROOF_FIELD } from "../../src/lib/waitlist/rules";
import { loadValidator } from "../../src/lib/waitlist/schema";
import { getConfig } from "../../src/server/config";
import { isDryRun } from "../../src/server/db/connection";
import { formErrorPage, formSuccess } from "../../src/server/form-page";
import { BodyTooLargeError, json, readText, withTimeout } from "../../src/server/http";
import { describeError, log } from "../../src/server/log";
import { createProofChallenge, verifyProof } from "../../src/server/proof-of-work";
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
 * Each network (an IPv4 address, an IPv6 /64) has a free allowance of valid sign-ups per sliding window,
 * counted and stored in one statement; past it, the dialog solves a proof-of-work challenge (a moment in a
 * Web Worker) and its sign-up is stored without counting. Invalid sign-ups count nothing. A repeated address, and a bot caught by the honeypot, get exactly the answer
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
  // Typos never count against anyone: an invalid sign-up stores nothing and is answered at once.
  if (!result.ok) return reply.error(400, result.message);
  if (caught) {
    log("info", "waitlist.honeypot");
    return reply.accepted();
  }
  const entry = toEntry(result.value);
  const window = rateWindow(config);
  try {
    // A solved proof-of-work, issued for this address, lets a sign-up past its network's free allowance.
    const proven = fields[PROOF_FIELD] !== undefined;
    if (proven && !(await verifyProof(fields[PROOF_FIELD], result.value.email, config))) {
      return reply.error(400, "The anti-spam check did not pass. Please try again.");
    }
    // Opening the store is not timed: locally, a new embedded database runs initdb (seconds) once.
    const store = await getStore();
    const outcome = await withTimeout(
      proven
        ? store.add(entry).then((added) => ({ added, estimate: 0 }))
        : store.hitAndAdd(clientKey(context.ip ?? "", config), window, config.rateLimitMax, entry),
      config.dbTimeoutMs,
    );
    if (outcome.estimate <= config.rateLimitMax) {
      log("info", "waitlist.signup", { added: outcome.added, proven, db: store.db.kind });
      return reply.accepted();
    }
    // Past the free allowance: the dialog is asked to prove it is a browser (a moment of work); the form
    // without JavaScript is told when to come back.
    log("warn", "waitlist.allowance_exceeded", { form });
    const minutes = Math.ceil(window.retryAfterSeconds / 60);
    const headers = { "Retry-After": String(window.retryAfterSeconds) };
    if (form) {
      return reply.error(
        429,
        `Many people have signed up from your network just now. Please come back in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        headers,
      );
    }
    return json(
      429,
      {
        error: "Please confirm you are not a robot.",
        challenge: await createProofChallenge(result.value.email, config),
      },
      headers,
    );
  } catch (error) {
    log("error", "waitlist.store_failed", describeError(error));
    return reply.error(503, "The waitlist is unavailable right now. Please try again.");
  }
};

export const config: Config = {
  path: "/api/waitlist",
  // Netlify's edge limit only stops raw floods: 600 requests a minute per IP and domain lets 200 people behind
  // one address sign up in the same minute (each at most two requests: the allowance's 429, then the proof).
  // The free allowance (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, in Postgres) is enforced above.
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ["ip", "domain"] },
};
