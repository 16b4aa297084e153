/**
 * The console's routes: what each path does, as one table per method (PAGES for GET and HEAD, ACTIONS for a form's
 * POST), and what each kind of page is given. The pipeline every request goes through is handler.ts's.
 */
import type { Context } from "@netlify/functions";
import { givenAddress } from "../../lib/waitlist/rules";
import { audit, auditStart } from "../audit";
import type { ServerConfig } from "../config";
import type { ServerDeps } from "../deps";
import type { UploadedFile } from "../http/request-body";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { UPLOAD_LIMIT } from "../import";
import { log } from "../log";
import type { Mailer } from "../mail/mailer";
import type { Store } from "../store/types";
import { auditPage } from "./audit/audit";
import { JOB_NOTICES, type JobDeps, jobAction, jobPage } from "./jobs/jobs";
import { dashboard } from "./overview/dashboard";
import { funnelDownload } from "./overview/funnel-csv";
import { CONSOLE_PATH, CONSOLE_PATHS, consoleHref, message, removeConfirmPage } from "./pages";
import { type DownloadDeps, exportPage, exportPart } from "./people/downloads";
import { importCheck, importFormPage, importRefusedCsv, importStart } from "./people/imports";
import { peopleGet } from "./people/people";
import { peopleBulk } from "./people/people-bulk";
import { type PersonVisit, personGet } from "./person/person";
import { personAction } from "./person/person-actions";
import { isDeepTarget, RETURN_FIELD, returnTarget } from "./sign-in/return-to";
import { createSessions, SIGN_IN_LINK_MINUTES } from "./sign-in/sessions";
import { confirmSignIn, sessionCookie, signIn } from "./sign-in/sign-in";
import { confirmSignInPage, type SignInMode, signInPage } from "./sign-in/sign-in-page";
import { updateMail } from "./updates/update-mail";
import { UPDATES_MAX_BODY, type UpdateVisit, updatesAction, updatesHome } from "./updates/updates";
import { waveFile } from "./waves/wave-files";
import { invite, WAVE_SLICE_MS, type WaveDeps } from "./waves/waves";
import { wavesPage } from "./waves/waves-page";
import { WEBHOOK_NOTICES, webhooksAction, webhooksPage } from "./webhooks/webhooks";

export type ConsoleDeps = ServerDeps & WaveDeps & DownloadDeps & JobDeps;

/** What a route is given: the request, who is signed in (null: nobody), and the console's parts. */
export interface Visit {
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
  /** An upload route's file (null: none sent, or not an upload route). */
  upload: UploadedFile | null;
}

/** A route that needs no session (signing in and out), or one answered 401 without a session. */
export type Route = { maxBody?: number; upload?: boolean } & (
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
export const PAGES: Record<string, Route> = {
  [CONSOLE_PATH]: {
    open: true,
    run: ({ who, mode, url, store, config, mailer }) => {
      if (!who) {
        const sent = `If that address may use the console, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.`;
        if (url.searchParams.has("sent")) return signInPage(mode, { sent });
        return signInPage(mode, { signedOut: url.searchParams.has("signed-out") });
      }
      return dashboard(store, config, who, url, mailer !== null);
    },
  },
  // The link's button posts the link back, its target rebuilt from the checked form (checked again on the POST).
  [CONSOLE_PATHS.confirm]: {
    open: true,
    run: ({ url }) => {
      const target = returnTarget(url.searchParams.get(RETURN_FIELD));
      const next = isDeepTarget(target) ? target : null;
      return confirmSignInPage(
        consoleHref(CONSOLE_PATHS.confirm, { token: url.searchParams.get("token"), [RETURN_FIELD]: next }),
      );
    },
  },
  // A part of a download: a GET that changes nothing, answered only with the session (downloads.tsx says why).
  [CONSOLE_PATHS.exportPart]: {
    run: ({ req, store, config, who, logId }) => exportPart(req, store, config, who, logId(who)),
  },
  // The funnel by source as a file: counts only, a GET that changes nothing (funnel-csv.ts).
  [CONSOLE_PATHS.funnel]: { run: ({ store, url, config }) => funnelDownload(store, url, config.dbTimeoutMs) },
  [CONSOLE_PATHS.updates]: { run: (visit) => updatesHome(updateVisit(visit), visit.url.searchParams) },
  // An update's e-mail alone, under a CSP of its own, for the console's frames (update-mail.tsx says why).
  [CONSOLE_PATHS.updateMail]: {
    run: ({ store, config, who, origin, url }) =>
      updateMail({ db: store.db, dbTimeoutMs: config.dbTimeoutMs, admin: who, origin }, url.searchParams),
  },
  [CONSOLE_PATHS.waves]: {
    run: ({ store, config, who }) => wavesPage({ db: store.db, dbTimeoutMs: config.dbTimeoutMs, admin: who }),
  },
  [CONSOLE_PATHS.jobs]: {
    run: (visit) =>
      jobPage(updateVisit(visit), visit.url.searchParams, JOB_NOTICES[visit.url.searchParams.get("done") ?? ""] ?? ""),
  },
  [CONSOLE_PATHS.webhooks]: {
    run: ({ store, config, who, url }) =>
      webhooksPage(store, config, who, WEBHOOK_NOTICES[url.searchParams.get("done") ?? ""] ?? "", url.searchParams),
  },
  [CONSOLE_PATHS.audit]: { run: ({ store, config, who, url }) => auditPage(store, config, who, url) },
  [CONSOLE_PATHS.person]: { run: (visit) => personGet(personVisit(visit), visit.url.searchParams) },
  [CONSOLE_PATHS.people]: { run: ({ store, config, who, url }) => peopleGet({ store, config, admin: who, url }) },
  [CONSOLE_PATHS.import]: { run: ({ who }) => importFormPage(who) },
  [CONSOLE_PATHS.importRefused]: {
    run: ({ store, config, who, url }) => importRefusedCsv({ store, config, admin: who }, url.searchParams),
  },
};

/** The actions: a POST from one of the console's forms. */
export const ACTIONS: Record<string, Route> = {
  [CONSOLE_PATHS.signIn]: {
    open: true,
    run: ({ origin, context, store, config, mode, mailer, fields }) =>
      signIn({ origin, context, store, config, mode, mailer }, fields),
  },
  [CONSOLE_PATHS.confirm]: { open: true, run: confirmSignIn },
  [CONSOLE_PATHS.signOut]: {
    open: true,
    run: async ({ cookie, who, store, origin, logId }) => {
      if (cookie) await store.of(createSessions).end(cookie);
      if (who) {
        log("info", "admin.sign_out", { admin: logId(who) });
        await audit(store.db, who, "sign-out");
      }
      return seeOther(`${CONSOLE_PATH}?signed-out=1`, { "Set-Cookie": sessionCookie(origin, "", 0) });
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
  [CONSOLE_PATHS.peopleBulk]: {
    run: ({ store, config, who, origin, mailer, fields, logId, deps }) =>
      peopleBulk({ store, config, admin: who, origin, mailer, fields, logId: logId(who), deps }),
  },
  // A multipart upload: up to 6 MB of file, plus the form's few fields (handler.ts reads it as such).
  [CONSOLE_PATHS.import]: {
    upload: true,
    maxBody: UPLOAD_LIMIT + 16 * 1024,
    run: (visit) => importCheck({ ...updateVisit(visit), upload: visit.upload }),
  },
  [CONSOLE_PATHS.importStart]: { run: (visit) => importStart({ ...updateVisit(visit), upload: null }) },
};

/** Every path that takes a POST: tests/integration/console/console-trust.test.ts walks each and reads its audit entry. */
export const CONSOLE_ACTION_PATHS = Object.keys(ACTIONS);
