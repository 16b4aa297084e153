/**
 * The operators' console at /admin (pages in pages.ts, sessions in sessions.ts, signing in in sign-in.ts), for the
 * people in ADMIN_EMAILS (signing in by an e-mailed link) or, with mail off, whoever has WAITLIST_ADMIN_TOKEN. One
 * pipeline per request: sign-in available → method → origin (every POST from the console's own origin) → session →
 * form → the route's action → answer. What each path does is routes.ts's table; its session cookie is the only
 * cookie the site sets, scoped to /admin, so no public page ever carries it.
 */
import type { Context } from "@netlify/functions";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite, siteOrigin } from "../http/origin";
import { readFormFields, readMultipart, type UploadedFile } from "../http/request-body";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { mailerFor } from "../mail/mailer";
import { suppressedMailer } from "../suppression";
import { message, offPage } from "./pages";
import { TOO_LARGE } from "./people/imports";
import { ACTIONS, type ConsoleDeps, PAGES, type Visit } from "./routes";
import { adminIdentity } from "./sign-in/identity";
import { refererTarget, returnTarget } from "./sign-in/return-to";
import { createSessions } from "./sign-in/sessions";
import { cookieValue, signInMode } from "./sign-in/sign-in";
import { signInPage } from "./sign-in/sign-in-page";

export { atRestWarning } from "./overview/dashboard";
export { SESSION_COOKIE, SIGN_IN_MAILS_PER_HOUR, signInMode } from "./sign-in/sign-in";

/** What a form posted without a session says above the sign-in. */
const ENDED = "Your session has ended, or you are not signed in. Sign in again to go on.";

export function createConsoleHandler(deps: ConsoleDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    const config = deps.config();
    const mailer = suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store);
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
    if (req.method === "POST") {
      // Every action is a form of the console itself: a browser always says where a POST comes from.
      if (isCrossSite(req, config, context, "console")) {
        log("warn", "admin.cross_origin_refused");
        return message(403, "Not allowed", "Console actions are accepted from the console's own pages only.");
      }
    }

    try {
      const store = await deps.store();
      const identity = await withTimeout(adminIdentity(config, store), config.dbTimeoutMs);
      const cookie = cookieValue(req);
      const stored = cookie ? await withTimeout(createSessions(store.db).find(cookie), config.dbTimeoutMs) : null;
      // An address taken off ADMIN_EMAILS, or a token replaced by a new one, loses its sessions at once.
      const who = identity.whoIs(stored, mode === "token");
      const route = (isGet ? PAGES : ACTIONS)[path];
      if (isGet && !route) return message(404, "Not found", "There is nothing here.");
      // Without a session, any page is the sign-in, which then lands on that page (a form's POST: on its page).
      const signInFirst = () =>
        isGet
          ? signInPage(mode, { next: returnTarget(`${url.pathname}${url.search}`) }, 401)
          : signInPage(mode, { error: ENDED, next: refererTarget(req, origin) }, 401);
      let fields: Record<string, string> = {};
      let upload: UploadedFile | null = null;
      if (!isGet && route?.upload) {
        // Up to 6 MB is read only for someone signed in.
        if (!who) return signInFirst();
        const read = await readMultipart(req, route.maxBody ?? BODY_LIMITS.form, "file");
        if ("status" in read && read.status === 413) return message(413, "Too large for the console", TOO_LARGE, who);
        if (!("fields" in read)) return message(read.status, "Please use the form", read.message);
        ({ fields, file: upload } = read);
      } else if (!isGet) {
        const read = await readFormFields(req, ACTIONS[path]?.maxBody ?? BODY_LIMITS.form);
        if (!("fields" in read)) return message(read.status, "Please use the form", read.message);
        fields = read.fields;
      }
      const { logId } = identity;
      const visit: Visit = {
        ...{ req, url, context, origin, store, config, deps, mode, mailer, who, cookie, fields, logId, upload },
      };
      if (route?.open) return await route.run(visit);
      if (!who) {
        if (!isGet) log("warn", "admin.no_session");
        return signInFirst();
      }
      if (!route) return message(404, "Not found", "There is nothing here.", who);
      return await route.run({ ...visit, who });
    } catch (error) {
      log("error", "admin.failed", describeError(error));
      return message(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
    }
  };
}
