/**
 * The operators' console at /admin (pages in pages.ts, sessions in sessions.ts, signing in in sign-in.ts), for the
 * people in ADMIN_EMAILS (signing in by an e-mailed link) or, with mail off, whoever has WAITLIST_ADMIN_TOKEN. One
 * pipeline per request: sign-in available → method → origin (every POST from the console's own origin) → session →
 * form → the route's action → answer. What each path does is routes.ts's table; its session cookie is the only
 * cookie the site sets, scoped to /admin, so no public page ever carries it.
 */
import type { Context } from "@netlify/functions";
import type { ServerConfig } from "../config";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite, siteOrigin } from "../http/origin";
import { readFormFields, readMultipart, type UploadedFile } from "../http/request-body";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import type { Mailer } from "../mail/mailer";
import { mailerFor } from "../mail/mailer";
import { suppressedMailer } from "../suppression";
import { message, offPage } from "./pages";
import { TOO_LARGE } from "./people/imports";
import { ACTIONS, type ConsoleDeps, PAGES, type Route, type Visit } from "./routes";
import { adminIdentity } from "./sign-in/identity";
import { refererTarget, returnTarget } from "./sign-in/return-to";
import { createSessions } from "./sign-in/sessions";
import { cookieValue, signInMode } from "./sign-in/sign-in";
import { type SignInMode, signInPage } from "./sign-in/sign-in-page";

export { atRestWarning } from "./overview/dashboard";
export { SESSION_COOKIE, SIGN_IN_MAILS_PER_HOUR, signInMode } from "./sign-in/sign-in";

/** What a form posted without a session says above the sign-in. */
const ENDED = "Your session has ended, or you are not signed in. Sign in again to go on.";

/** The request's first steps, before the database: sign-in available, method, the site's origin, a POST's origin. */
type Gate = { mode: SignInMode; url: URL; path: string; isGet: boolean; origin: string };
function gate(req: Request, context: Context, config: ServerConfig, mailer: Mailer | null): Gate | Response {
  const mode = signInMode(config, mailer !== null);
  // A token too short to stand guessing is refused, and said here where the team will look (mail off only).
  if (!mode && config.adminTokenProblem && mailer === null) {
    log("error", "admin.token_refused", { reason: config.adminTokenProblem });
    return message(503, "Set a longer admin token", config.adminTokenProblem);
  }
  if (!mode) return offPage();
  const url = new URL(req.url);
  const path = url.pathname.replace(/\/+$/, "") || "/";
  const isGet = req.method === "GET" || req.method === "HEAD";
  if (!isGet && req.method !== "POST") {
    return message(405, "Not allowed", "Use the console's own pages and buttons.", null, { Allow: "GET, POST" });
  }
  let origin: string;
  try {
    origin = siteOrigin(config, context, req);
  } catch (error) {
    log("error", "admin.site_unknown", describeError(error));
    return message(503, "Set SITE_URL", "The site's address is unknown: set SITE_URL to use the console.");
  }
  // Every action is a form of the console itself: a browser always says where a POST comes from.
  if (!isGet && isCrossSite(req, config, context, "console")) {
    log("warn", "admin.cross_origin_refused");
    return message(403, "Not allowed", "Console actions are accepted from the console's own pages only.");
  }
  return { mode, url, path, isGet, origin };
}

/** A POST's form: its fields, and an upload route's file (read only for someone signed in). */
async function readForm(
  req: Request,
  route: Route | undefined,
  who: string | null,
  signInFirst: () => Response,
): Promise<{ fields: Record<string, string>; upload: UploadedFile | null } | Response> {
  if (route?.upload) {
    // Up to 6 MB is read only for someone signed in.
    if (!who) return signInFirst();
    const read = await readMultipart(req, route.maxBody ?? BODY_LIMITS.form, "file");
    if ("status" in read && read.status === 413) return message(413, "Too large for the console", TOO_LARGE, who);
    if (!("fields" in read)) return message(read.status, "Please use the form", read.message);
    return { fields: read.fields, upload: read.file };
  }
  const read = await readFormFields(req, route?.maxBody ?? BODY_LIMITS.form);
  if (!("fields" in read)) return message(read.status, "Please use the form", read.message);
  return { fields: read.fields, upload: null };
}

export function createConsoleHandler(deps: ConsoleDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    const config = deps.config();
    const mailer = suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store);
    const gated = gate(req, context, config, mailer);
    if (gated instanceof Response) return gated;
    try {
      return await visitRoute(req, context, deps, { config, mailer, ...gated });
    } catch (error) {
      log("error", "admin.failed", describeError(error));
      return message(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
    }
  };
}

/** Who is signed in, the form, then the route's own answer (or the sign-in first). */
type Gated = Gate & { config: ServerConfig; mailer: Mailer | null };
async function visitRoute(req: Request, context: Context, deps: ConsoleDeps, gated: Gated) {
  const { mode, url, path, isGet, origin, config, mailer } = gated;
  const store = await deps.store();
  const identity = await withTimeout(adminIdentity(config, store), config.dbTimeoutMs);
  const cookie = cookieValue(req);
  const stored = cookie ? await withTimeout(store.of(createSessions).find(cookie), config.dbTimeoutMs) : null;
  // An address taken off ADMIN_EMAILS, or a token replaced by a new one, loses its sessions at once.
  const who = identity.whoIs(stored, mode === "token");
  const route = (isGet ? PAGES : ACTIONS)[path];
  if (isGet && !route) return message(404, "Not found", "There is nothing here.");
  // Without a session, any page is the sign-in, which then lands on that page (a form's POST: on its page).
  const signInFirst = () =>
    isGet
      ? signInPage(mode, { next: returnTarget(`${url.pathname}${url.search}`) }, 401)
      : signInPage(mode, { error: ENDED, next: refererTarget(req, origin) }, 401);
  const form = isGet ? { fields: {}, upload: null } : await readForm(req, route, who, signInFirst);
  if (form instanceof Response) return form;
  const { logId } = identity;
  const visit: Visit = { req, url, context, origin, store, config, deps, mode, mailer, who, cookie, logId, ...form };
  if (route?.open) return await route.run(visit);
  if (!who) {
    if (!isGet) log("warn", "admin.no_session");
    return signInFirst();
  }
  if (!route) return message(404, "Not found", "There is nothing here.", who);
  return await route.run({ ...visit, who });
}
