/**
 * POST /api/waitlist, read top to bottom: method → content type → origin → size → parse → validate → store →
 * answer, each a named step below (the store and the answer: add.ts). JSON from the dialog gets JSON; a form post
 * from /join (no JavaScript) gets a 303 to /join/thanks or a small page. Each network (an IPv4 address, an IPv6
 * /64) has a free allowance of valid sign-ups per sliding window, counted and stored in one statement; past it, the
 * dialog solves a proof of work (a moment in a Web Worker) and its sign-up is stored without counting; invalid
 * sign-ups count nothing. A repeated address, and a bot caught by the honeypot, get exactly the answer of a new
 * sign-up, so the API never reveals who is on the list or what tripped a filter. Tests call it with their own store
 * and configuration.
 */
import type { Context } from "@netlify/functions";
import { HONEYPOT_FIELD } from "../../lib/waitlist/rules";
import { loadValidator } from "../../lib/waitlist/schema";
import type { ServerConfig } from "../config";
import { isDryRun } from "../db/connection";
import type { ServerDeps } from "../deps";
import { toEntry } from "../entry";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite } from "../http/origin";
import { FormEncodingError, mediaType, readBody } from "../http/request-body";
import { json } from "../http/responses";
import { log } from "../log";
import { mailerFor } from "../mail/mailer";
import { suppressedMailer } from "../suppression";
import { addSignup } from "./add";
import { joinPageLoader } from "./join-page";
import { type Reply, replyTo } from "./reply";
import { attributionOfRequest, formFields } from "./request";

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
type Fields = Record<string, unknown>;
type Validated = Awaited<ReturnType<Awaited<ReturnType<typeof loadValidator>>>>;

export function createWaitlistHandler(deps: ServerDeps, { joinPage }: { joinPage?: URL } = {}) {
  const page = joinPage && joinPageLoader(joinPage);
  return async (req: Request, context: Context): Promise<Response> => {
    const type = postedType(req);
    if (type instanceof Response) return type;
    const config = deps.config();
    const mailer = suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store);
    const reply = replyTo(type === FORM_TYPE, mailer !== null, page);
    // Another site's page may not sign its visitors up (a form post needs no CORS): refused before reading.
    if (isCrossSite(req, config, context)) return reply.error(403, "Sign-ups are accepted from this site only.");
    const fields = await readFields(req, reply);
    if (fields instanceof Response) return fields;
    const result = (await loadValidator())(fields);
    const unstored = await answeredUnstored(context, config, fields, result, reply);
    if (unstored) return unstored;
    if (!result.ok) return reply.refused(fields, { status: 400, ...result });
    const entry = toEntry(result.value, attributionOfRequest(req, fields, config, context));
    return addSignup({ req, context, config, fields, entry, mailer, reply }, deps);
  };
}

/** Method, then content type: a POST of JSON (the dialog) or of a form (/join without JavaScript). */
function postedType(req: Request): typeof JSON_TYPE | typeof FORM_TYPE | Response {
  if (req.method !== "POST") return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
  const type = mediaType(req);
  if (type === JSON_TYPE || type === FORM_TYPE) return type;
  return json(415, { error: `Content-Type must be ${JSON_TYPE} (or ${FORM_TYPE} from the /join form).` });
}

/** Size, then parse: the body within its limit, read as the form's fields or a JSON object. */
async function readFields(req: Request, reply: Reply): Promise<Fields | Response> {
  const read = await readBody(req, BODY_LIMITS.json);
  if ("status" in read) return reply.error(read.status, read.message);
  let body: unknown;
  try {
    body = reply.form ? formFields(read.text) : JSON.parse(read.text);
  } catch (error) {
    if (error instanceof FormEncodingError) return reply.error(400, error.message);
    return json(400, { error: "Request body is not valid JSON." });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(400, { error: "Request body must be a JSON object." });
  }
  return body as Fields;
}

/**
 * The answer of a sign-up nothing is stored for, or null: a deploy preview's dry run (with a shared DATABASE_URL
 * previews and branch deploys write nothing: Netlify Database's preview branch, or ALLOW_PREVIEW_WRITES=1, gives
 * them their own), or a bot caught by the honeypot (answered as a success, whatever it sent).
 */
async function answeredUnstored(
  context: Context,
  config: ServerConfig,
  fields: Fields,
  result: Validated,
  reply: Reply,
): Promise<Response | null> {
  const deployContext = (context as Partial<Context>).deploy?.context;
  if (isDryRun(deployContext, config)) {
    log("info", "waitlist.preview_dry_run", { context: deployContext, valid: result.ok });
    if (!result.ok) return reply.refused(fields, { status: 400, ...result });
    const response = reply.accepted();
    response.headers.set("X-Waitlist-Dry-Run", deployContext ?? "");
    return response;
  }
  const honeypot = fields[HONEYPOT_FIELD];
  if (honeypot === undefined || honeypot === null || honeypot === "") return null;
  log("info", "waitlist.honeypot");
  return reply.accepted();
}
