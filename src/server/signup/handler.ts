/** The waitlist function's pipeline: one request path, kept whole so it reads in order. */
import type { Context } from "@netlify/functions";
import { type Attribution, attributionOf, cleanAttribution, NO_ATTRIBUTION } from "../../lib/waitlist/attribution";
import { REFERRER_FIELD } from "../../lib/waitlist/capture";
import { cleanReferralCode, REFERRAL_FIELD, referralCodeOf } from "../../lib/waitlist/referral";
import { ANSWER_PREFIX, HONEYPOT_FIELD, PROOF_FIELD } from "../../lib/waitlist/rules";
import { loadValidator } from "../../lib/waitlist/schema";
import type { ServerConfig } from "../config";
import { databaseKey, rootKey } from "../crypto/keys";
import { isDryRun } from "../db/connection";
import type { ServerDeps } from "../deps";
import { toEntry } from "../entry";
import { formErrorPage, formSuccess } from "../http/form-page";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite, isOwnOrigin, siteOrigin } from "../http/origin";
import { clientKey, comeBackLater, rateWindow } from "../http/rate-limit";
import { FormEncodingError, mediaType, parseForm, readBody } from "../http/request-body";
import { afterAnswer, json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { addressKey, countedMailboxKey, storedMailboxKey } from "../mail/mailbox";
import { mailerFor } from "../mail/mailer";
import { sendConfirmation } from "../mail/send";
import { referralOf } from "../referrals";
import { suppressedMailer } from "../suppression";
import { joinPageLoader } from "./join-page";
import type { Refusal } from "./join-refusal";
import { createProofChallenge, verifyProof } from "./proof-of-work";

const ACCEPTED = { ok: true } as const;
const CONFIRMATION_SENT = { ok: true, confirmation: "sent" } as const;
const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
const AGAIN = "Please try again";

/**
 * The fields of a form post (the /join page without JavaScript); a checked box counts as `true`. The team's
 * questions arrive as `answer:<id>` (a text, or the option picked) and `answer:<id>:<n>` (each box ticked of a
 * `multiple`), gathered into `answers` as the dialog sends them.
 */
function formFields(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = parseForm(text);
  fields["termsAccepted"] = ["on", "true"].includes(String(fields["termsAccepted"] ?? ""));
  const answers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith(ANSWER_PREFIX)) continue;
    const [id = "", box] = name.slice(ANSWER_PREFIX.length).split(":");
    const ticked = answers[id];
    if (box === undefined) answers[id] = String(value);
    else answers[id] = [...(Array.isArray(ticked) ? ticked : []), String(value)];
    delete fields[name];
  }
  fields["answers"] = answers;
  return fields;
}

/**
 * Answers in the caller's language: JSON for the dialog, a redirect or a small HTML page for a form post. With
 * confirmation by e-mail on, every accepted sign-up (new, repeated, confirmed or not) says a link was sent:
 * the answer never tells who is on the list.
 */
function answer(form: boolean, confirmation: boolean, joinPage?: () => Promise<string>) {
  return {
    accepted: () => (form ? formSuccess(confirmation) : json(201, confirmation ? CONFIRMATION_SENT : ACCEPTED)),
    error: (status: number, error: string, headers: Record<string, string> = {}) => {
      if (!form) return json(status, { error }, headers);
      return formErrorPage(status, status === 400 ? "Please check the form" : "Please try again", error, { headers });
    },
    /**
     * Refused once the sign-up was read: a form post gets /join again, filled with what it sent. Its renderer
     * (react-dom/server) is loaded then only, so a sign-up's cold start does not read it.
     */
    refused: async (fields: Record<string, unknown>, refusal: Refusal) =>
      form
        ? (await import("./join-refusal")).refusedJoin(joinPage, fields, refusal)
        : json(refusal.status, { error: refusal.message }, refusal.headers ?? {}),
  };
}

/**
 * Where the sign-up came from, by attribution.ts's one rule on every path: what the island worked out
 * (`attribution`, cleaned field by field), else the rule applied to the page the form was posted from (its
 * Referer, when it is this site's) and the referring origin in the form (put there by the page's script, or for
 * /join by the function that served it). Never a reason to refuse a sign-up.
 */
function attributionOfRequest(
  req: Request,
  fields: Record<string, unknown>,
  config: ServerConfig,
  context: Context,
): Attribution {
  if (fields["attribution"] !== undefined) return cleanAttribution(fields["attribution"]);
  const referer = req.headers.get("referer");
  const sameSite = referer && URL.canParse(referer) && isOwnOrigin(new URL(referer).origin, config, context, req);
  const from = fields[REFERRER_FIELD];
  return sameSite ? attributionOf(referer, typeof from === "string" ? from : "") : NO_ATTRIBUTION;
}

/**
 * The share code the sign-up came by: the island's and /join's field, else (the early dialog's form) the `via` of
 * this site's page the form was posted from. Malformed or absent: null, and the sign-up goes on.
 */
function referralCodeOfRequest(req: Request, fields: Record<string, unknown>, config: ServerConfig, context: Context) {
  const given = cleanReferralCode(fields[REFERRAL_FIELD]);
  if (given) return given;
  const referer = req.headers.get("referer");
  const sameSite = referer && URL.canParse(referer) && isOwnOrigin(new URL(referer).origin, config, context, req);
  return sameSite ? referralCodeOf(referer) : null;
}

/**
 * POST /api/waitlist, read top to bottom: method → content type → origin → size → parse → validate → store →
 * answer. JSON from the dialog gets JSON; a form post from /join (no JavaScript) gets a 303 to /join/thanks or
 * a small page. Each network (an IPv4 address, an IPv6 /64) has a free allowance of valid sign-ups per sliding
 * window, counted and stored in one statement; past it, the dialog solves a proof of work (a moment in a Web
 * Worker) and its sign-up is stored without counting; invalid sign-ups count nothing. A repeated address, and
 * a bot caught by the honeypot, get exactly the answer of a new sign-up, so the API never reveals who is on
 * the list or what tripped a filter. Tests call it with their own store and configuration.
 */
export function createWaitlistHandler(deps: ServerDeps, { joinPage }: { joinPage?: URL } = {}) {
  const page = joinPage && joinPageLoader(joinPage);
  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "POST") {
      return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
    }
    const type = mediaType(req);
    if (type !== JSON_TYPE && type !== FORM_TYPE) {
      return json(415, { error: `Content-Type must be ${JSON_TYPE} (or ${FORM_TYPE} from the /join form).` });
    }
    const form = type === FORM_TYPE;
    const config = deps.config();
    const mailer = suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store);
    const reply = answer(form, mailer !== null, page);
    // Another site's page may not sign its visitors up (a form post needs no CORS): refused before reading.
    if (isCrossSite(req, config, context)) return reply.error(403, "Sign-ups are accepted from this site only.");

    const read = await readBody(req, BODY_LIMITS.json);
    if ("status" in read) return reply.error(read.status, read.message);

    let body: unknown;
    try {
      body = form ? formFields(read.text) : JSON.parse(read.text);
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

    // Deploy previews and branch deploys write only to a database of their own (Netlify Database's preview
    // branch, or ALLOW_PREVIEW_WRITES=1); with a shared DATABASE_URL they are dry runs.
    const deployContext = (context as Partial<Context>).deploy?.context;
    if (isDryRun(deployContext, config)) {
      log("info", "waitlist.preview_dry_run", { context: deployContext, valid: result.ok });
      if (!result.ok) return reply.refused(fields, { status: 400, ...result });
      const response = reply.accepted();
      response.headers.set("X-Waitlist-Dry-Run", deployContext ?? "");
      return response;
    }
    // A bot caught by the honeypot is answered as a success, whatever it sent, and nothing is kept.
    if (caught) {
      log("info", "waitlist.honeypot");
      return reply.accepted();
    }
    // Typos never count against anyone: an invalid sign-up stores nothing and is answered at once.
    if (!result.ok) return reply.refused(fields, { status: 400, ...result });
    const entry = toEntry(result.value, attributionOfRequest(req, fields, config, context));
    // With confirmation by e-mail, a new address waits as pending until its link is used.
    const status = mailer ? "pending" : "confirmed";
    const window = rateWindow(config);
    try {
      // Where the confirmation's links lead, known before anything is stored (an unknown address is a 503).
      const site = mailer ? siteOrigin(config, context, req) : "";
      // Opening the store is not timed: locally, a new embedded database runs initdb (seconds) once.
      const store = await deps.store();
      // The server's secret (SERVER_SECRET, else the database's): read once per store, then at hand.
      const root = await withTimeout(rootKey(config, store), config.dbTimeoutMs);
      // A solved proof-of-work, issued for this address, lets a sign-up past its network's free allowance.
      const proven = fields[PROOF_FIELD] !== undefined;
      if (proven && !(await verifyProof(fields[PROOF_FIELD], result.value.email, root))) {
        return reply.refused(fields, {
          status: 400,
          title: AGAIN,
          message: "The anti-spam check did not pass. Please try again.",
        });
      }
      // The mailbox (for referrals: one mailbox counts once) and the share link the sign-up came by, if any.
      // Kept on the row, so keyed by the database's own secret (never SERVER_SECRET, which may change or differ
      // between processes): every row's key stays comparable with every other's.
      const database = await withTimeout(databaseKey(store), config.dbTimeoutMs);
      entry.mailboxKey = storedMailboxKey(database, entry.email);
      // The exact address, as the suppression list keys it (waitlist.mail_suppressed follows it: migration 0021).
      entry.addressKey = addressKey(database, entry.email);
      const code = referralCodeOfRequest(req, fields, config, context);
      // A share code is never a reason to refuse a sign-up: if its lookup fails, the sign-up goes on without it.
      entry.referral = await withTimeout(referralOf(store.referrals, code, entry.email), config.dbTimeoutMs).catch(
        (error: unknown) => {
          log("warn", "waitlist.referral_lookup_failed", describeError(error));
          return undefined;
        },
      );
      const outcome = await withTimeout(
        proven
          ? store
              .add(entry, status)
              .then((added) => ({ added, allowed: true, attempts: 0, previous: 0, retryAfter: 0 }))
          : store.hitAndAdd(clientKey(context.ip ?? "", root), window, config.rateLimitMax, entry, status),
        config.dbTimeoutMs,
      );
      if (outcome.allowed) {
        log("info", "waitlist.signup", { added: outcome.added, proven, db: store.db.kind });
        // A pending address (new, or repeated) is mailed after the answer; a confirmed one never is.
        if (mailer) {
          const to = { email: entry.email, site, mailboxKey: countedMailboxKey(root, entry.email) };
          afterAnswer(context, sendConfirmation(store.consent, mailer, to));
        }
        return reply.accepted();
      }
      // Past the free allowance: the dialog is asked to prove it is a browser (a moment of work); the form
      // without JavaScript is told when to come back.
      log("warn", "waitlist.allowance_exceeded", { form });
      const { message, headers } = comeBackLater(outcome.retryAfter, "Many people have signed up");
      if (form) return reply.refused(fields, { status: 429, title: AGAIN, message, headers });
      return json(
        429,
        {
          error: "Please confirm you are not a robot.",
          challenge: await createProofChallenge(result.value.email, root),
        },
        headers,
      );
    } catch (error) {
      log("error", "waitlist.store_failed", describeError(error));
      return reply.refused(fields, {
        status: 503,
        title: AGAIN,
        message: "The waitlist is unavailable right now. Please try again.",
      });
    }
  };
}
