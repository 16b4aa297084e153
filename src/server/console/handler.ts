/**
 * The operators' console at /admin (pages in pages.ts, sessions in sessions.ts, signing in in sign-in.ts), for the
 * people in ADMIN_EMAILS (signing in by an e-mailed link) or, with mail off, whoever has WAITLIST_ADMIN_TOKEN. One
 * pipeline per request: sign-in available → method → origin (every POST from the console's own origin) → session →
 * form → the route's action → answer. What each path does is the table below; its session cookie is the only
 * cookie the site sets, scoped to /admin, so no public page ever carries it.
 */
import type { Context } from "@netlify/functions";
import { givenAddress } from "../../lib/waitlist/rules";
import { audit, auditStart } from "../audit";
import type { ServerConfig } from "../config";
import type { ServerDeps } from "../deps";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite, siteOrigin } from "../http/origin";
import { readFormFields } from "../http/request-body";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { type Mailer, mailerFor } from "../mail/mailer";
import type { Store } from "../store/types";
import { suppressedMailer } from "../suppression";
import { auditPage } from "./audit";
import { dashboard } from "./dashboard";
import { type DownloadDeps, exportPage, exportPart } from "./downloads";
import { adminIdentity } from "./identity";
import { JOB_NOTICES, type JobDeps, jobAction, jobPage } from "./jobs";
import {
  CONSOLE_PATH,
  CONSOLE_PATHS,
  confirmSignInPage,
  message,
  offPage,
  removeConfirmPage,
  type SignInMode,
  signInPage,
} from "./pages";
import { type PersonVisit, personAction, personGet } from "./person";
import { createSessions, SIGN_IN_LINK_MINUTES } from "./sessions";
import { confirmSignIn, cookieValue, sessionCookie, signIn, signInMode } from "./sign-in";
import { UPDATES_MAX_BODY, type UpdateVisit, updatesAction, updatesHome } from "./updates";
import { waveFile } from "./wave-files";
import { invite, WAVE_SLICE_MS, type WaveDeps } from "./waves";
import { WEBHOOK_NOTICES, webhooksAction, webhooksPage } from "./webhooks";

export { atRestWarning } from "./dashboard";
export { SESSION_COOKIE, SIGN_IN_MAILS_PER_HOUR, signInMode } from "./sign-in";

type ConsoleDeps = ServerDeps & WaveDeps & DownloadDeps & JobDeps;

/** What a route is given: the request, who is signed in (null: nobody), and the console's parts. */
interface Visit {
  req: Request;
  url: URL;
  context: Context;
  origin: string;
  store: Store;
  config: ServerConfig;
  deps: ConsoleDeps;
  mode: SignInMode;
  mailer: Mailer | null;
  /** The admin signed in, or null. */
  who: string | null;
  /** The session cookie as sent ("" without one). */
  cookie: string;
  /** How an admin is named in the logs (a keyed hash, never the address). */
  logId: (admin: string) => string;
  /** The POST's form fields (empty for a GET). */
  fields: Record<string, string>;
}

/** A route that needs no session (signing in and out), or one answered 401 without a session. */
type Route = { maxBody?: number } & (
  | { open: true; run: (visit: Visit) => Promise<Response> | Response }
  | { open?: false; run: (visit: Visit & { who: string }) => Promise<Response> | Response }
);

/** What a person's page is given. */
const personVisit = (visit: Visit & { who: string }): PersonVisit => ({
  store: visit.store,
  config: visit.config,
  admin: visit.who,
  origin: visit.origin,
  mailer: visit.mailer,
  fields: visit.fields,
});

/** What an update's step, or a job's page, is given: the visit, how jobs start, and who in the logs. */
const updateVisit = (visit: Visit & { who: string }): UpdateVisit => ({
  ...personVisit(visit),
  deps: visit.deps,
  logId: visit.logId(visit.who),
});

/** The pages: GET (and HEAD). Signed out, the console's own path is the sign-in page. */
const PAGES: Record<string, Route> = {
  [CONSOLE_PATH]: {
    open: true,
    run: ({ who, mode, url, store, config, mailer }) => {
      if (!who) {
        const notice = `If that address may use the console, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.`;
        return signInPage(mode, url.searchParams.has("sent") ? { notice } : {});
      }
      return dashboard(store, config, who, url, mailer !== null);
    },
  },
  [CONSOLE_PATHS.confirm]: { open: true, run: ({ url }) => confirmSignInPage(`${url.pathname}${url.search}`) },
  // A part of a download: a GET that changes nothing, answered only with the session (downloads.ts says why).
  [CONSOLE_PATHS.exportPart]: {
    run: ({ req, store, config, who, logId }) => exportPart(req, store, config, who, logId(who)),
  },
  [CONSOLE_PATHS.updates]: { run: (visit) => updatesHome(updateVisit(visit)) },
  [CONSOLE_PATHS.jobs]: {
    run: (visit) =>
      jobPage(updateVisit(visit), visit.url.searchParams, JOB_NOTICES[visit.url.searchParams.get("done") ?? ""] ?? ""),
  },
  [CONSOLE_PATHS.webhooks]: {
    run: ({ store, config, who, url }) =>
      webhooksPage(
        store,
        config,
        who,
        WEBHOOK_NOTICES[url.searchParams.get("done") ?? ""] ?? "",
        url.searchParams.get("show"),
      ),
  },
  [CONSOLE_PATHS.audit]: { run: ({ store, config, who, url }) => auditPage(store, config, who, url) },
  [CONSOLE_PATHS.person]: { run: (visit) => personGet(personVisit(visit), visit.url.searchParams) },
};

/** The actions: a POST from one of the console's forms. */
const ACTIONS: Record<string, Route> = {
  [CONSOLE_PATHS.signIn]: {
    open: true,
    run: ({ origin, context, store, config, mode, mailer, fields }) =>
      signIn({ origin, context, store, config, mode, mailer }, fields),
  },
  [CONSOLE_PATHS.confirm]: { open: true, run: confirmSignIn },
  [CONSOLE_PATHS.signOut]: {
    open: true,
    run: async ({ cookie, who, store, origin, logId }) => {
      if (cookie) await createSessions(store.db).end(cookie);
      if (who) {
        log("info", "admin.sign_out", { admin: logId(who) });
        await audit(store.db, who, "sign-out");
      }
      return seeOther(CONSOLE_PATH, { "Set-Cookie": sessionCookie(origin, "", 0) });
    },
  },
  [CONSOLE_PATHS.invite]: {
    run: ({ fields, store, config, who, origin, deps }) =>
      fields["file"] !== undefined
        ? waveFile(store, config, who, fields)
        : invite({
            origin,
            store,
            config,
            admin: who,
            fields,
            slice: deps.waveSlice ?? { ms: WAVE_SLICE_MS },
            deps,
          }),
  },
  [CONSOLE_PATHS.remove]: {
    run: async ({ fields, who, store, config, logId }) => {
      const email = givenAddress(fields["email"]);
      if (email === undefined) {
        const given = (fields["email"] ?? "").trim() !== "";
        return message(400, "Remove", given ? "That is not an e-mail address." : "No address was given.", who);
      }
      if (fields["confirm"] !== "yes") return removeConfirmPage(who, email);
      // The removed person's address is not kept, not even here.
      const entry = await auditStart(store.db, who, "remove");
      const removed = await withTimeout(store.erase(email), config.dbTimeoutMs);
      log("info", "admin.remove", { admin: logId(who), removed });
      await entry.end({ removed });
      return seeOther(`${CONSOLE_PATH}?removed=${removed ? 1 : 0}`);
    },
  },
  [CONSOLE_PATHS.export]: {
    run: ({ store, config, who, logId, deps, fields }) =>
      exportPage({ store, config, admin: who, logId: logId(who), size: deps.partSize }, fields["format"] ?? ""),
  },
  [CONSOLE_PATHS.updates]: { maxBody: UPDATES_MAX_BODY, run: (visit) => updatesAction(updateVisit(visit)) },
  [CONSOLE_PATHS.jobs]: { run: (visit) => jobAction(updateVisit(visit)) },
  [CONSOLE_PATHS.webhooks]: {
    run: ({ store, config, who, fields, origin, deps }) => webhooksAction(store, config, who, fields, { origin, deps }),
  },
  [CONSOLE_PATHS.person]: { run: (visit) => personAction(personVisit(visit)) },
};

/** Every path that takes a POST: tests/integration/console/console-trust.test.ts walks each and reads its audit entry. */
export const CONSOLE_ACTION_PATHS = Object.keys(ACTIONS);

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
      let fields: Record<string, string> = {};
      if (!isGet) {
        const read = await readFormFields(req, ACTIONS[path]?.maxBody ?? BODY_LIMITS.form);
        if (!("fields" in read)) return message(read.status, "Please use the form", read.message);
        fields = read.fields;
      }
      const { logId } = identity;
      const visit: Visit = { req, url, context, origin, store, config, deps, mode, mailer, who, cookie, fields, logId };
      if (route?.open) return await route.run(visit);
      if (!who) {
        if (isGet) return message(401, "Please sign in", "Sign in to the console, then download the list again.");
        log("warn", "admin.no_session");
        return message(
          401,
          "Please sign in",
          "Your session has ended, or you are not signed in. Sign in again to go on.",
        );
      }
      if (!route) return message(404, "Not found", "There is nothing here.", who);
      return await route.run({ ...visit, who });
    } catch (error) {
      log("error", "admin.failed", describeError(error));
      return message(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
    }
  };
}
