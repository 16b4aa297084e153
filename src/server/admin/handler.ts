/**
 * The operators' console at /admin (pages in pages.ts, sessions in sessions.ts), for the people in ADMIN_EMAILS
 * (signing in by an e-mailed link) or, with mail off, whoever has WAITLIST_ADMIN_TOKEN. One pipeline per request:
 * sign-in available → method → origin (every POST from the console's own origin) → session → form → action →
 * answer. Its session cookie is the only cookie the site sets, scoped to /admin, so no public page ever carries it.
 */
import type { Context } from "@netlify/functions";
import { EMAIL_PATTERN, LIMITS } from "../../lib/waitlist/rules";
import type { ServerConfig } from "../config";
import { earlyAccessBase, InviteConfigError } from "../invitations";
import { describeError, log } from "../log";
import { type Mailer, mailerFor } from "../mail/mailer";
import { consoleSignInEmail } from "../mail/messages";
import { siteOrigin } from "../origin";
import { clientKey, comeBackLater, rateWindow, secondsUntilAccepted } from "../rate-limit";
import { readFormFields } from "../request-body";
import { afterAnswer, seeOther } from "../responses";
import { rootKey } from "../secret";
import type { Sealing, Store } from "../store";
import { withTimeout } from "../timeout";
import { sameSecret } from "../tokens";
import type { WaitlistDeps } from "../waitlist-handler";
import { type DownloadDeps, exportPage, exportPart } from "./downloads";
import { adminIdentity } from "./identity";
import { createConsoleList, listPosition, MAX_PAGE } from "./list";
import {
  CONSOLE_PATH,
  CONSOLE_PATHS,
  confirmSignInPage,
  dashboardPage,
  message,
  offPage,
  removeConfirmPage,
  type SignInMode,
  signInPage,
} from "./pages";
import { createSessions, SESSION_HOURS, SIGN_IN_LINK_MINUTES } from "./sessions";
import { pendingFilesSection, waveFile, waveNotice } from "./wave-files";
import { invite, WAVE_SLICE_MS, type WaveDeps } from "./waves";

export const SESSION_COOKIE = "noosphere_console";
const MAX_BODY = 4 * 1024;
const SIGN_IN_KEY_PREFIX = "admin:";
/**
 * Sign-in e-mails per admin address and hour: enough for a lost one or two, too few for anyone asking on an admin's
 * behalf to fill their inbox. Counted under a keyed hash of the address, in the allowance's own table.
 */
export const SIGN_IN_MAILS_PER_HOUR = 5;
const SIGN_IN_MAIL_PREFIX = "admin-mail:";

/** How people sign in here: by e-mailed link (mail on and ADMIN_EMAILS set), by token (mail off), or not at all. */
export function signInMode(config: ServerConfig, mail: boolean): SignInMode | null {
  if (mail && config.adminEmails.length > 0) return "email";
  if (!mail && config.adminToken) return "token";
  return null;
}

function sessionCookie(origin: string, value: string, maxAge: number): string {
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${value}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

function cookieValue(req: Request): string {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=");
  }
  return "";
}

async function readFields(req: Request): Promise<Record<string, string> | Response> {
  const read = await readFormFields(req, MAX_BODY);
  return "fields" in read ? read.fields : message(read.status, "Please use the form", read.message);
}

/** What the dashboard says after a removal (its 303 carries whether one happened, never an address). */
function removalNotice(params: URLSearchParams): string | null {
  if (params.get("removed") === "1") return "Removed: the address, everything it sent and its links are deleted.";
  if (params.get("removed") === "0") return "That address is not on the list (it may have been removed already).";
  return null;
}

export function createConsoleHandler(deps: WaitlistDeps & WaveDeps & DownloadDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    const config = deps.config();
    const mailer = (deps.mailer ?? mailerFor)(config);
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
      if (req.headers.get("origin") !== origin || req.headers.get("sec-fetch-site") === "cross-site") {
        log("warn", "admin.cross_origin_refused");
        return message(403, "Not allowed", "Console actions are accepted from the console's own pages only.");
      }
    }

    try {
      const store = await deps.store();
      const sessions = createSessions(store.db);
      const identity = await withTimeout(adminIdentity(config, store), config.dbTimeoutMs);
      const adminId = identity.logId;
      const cookie = cookieValue(req);
      const stored = cookie ? await withTimeout(sessions.find(cookie), config.dbTimeoutMs) : null;
      // An address taken off ADMIN_EMAILS, or a token replaced by a new one, loses its sessions at once.
      const who = identity.whoIs(stored, mode === "token");

      if (isGet && path === CONSOLE_PATH) {
        if (!who) {
          const sent = url.searchParams.has("sent");
          return signInPage(
            mode,
            sent
              ? {
                  notice: `If that address may use the console, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.`,
                }
              : {},
          );
        }
        return await dashboard(store, config, who, url, mailer !== null);
      }
      if (isGet && path === CONSOLE_PATHS.confirm) return confirmSignInPage(`${url.pathname}${url.search}`);
      // A part of a download: a GET that changes nothing, answered only with the session (downloads.ts says why).
      if (isGet && path === CONSOLE_PATHS.exportPart) {
        if (!who) return message(401, "Please sign in", "Sign in to the console, then download the list again.");
        return await exportPart(req, store, config, who, adminId(who));
      }
      if (isGet) return message(404, "Not found", "There is nothing here.");

      const fields = await readFields(req);
      if (fields instanceof Response) return fields;

      if (path === CONSOLE_PATHS.signIn) return await signIn({ origin, context, store, config, mode, mailer }, fields);
      if (path === CONSOLE_PATHS.confirm) {
        const token = url.searchParams.get("token") ?? fields["token"] ?? "";
        const admin = identity.whoIs(await withTimeout(sessions.redeemSignIn(token), config.dbTimeoutMs), false);
        if (!admin) {
          return message(
            400,
            "This link doesn't work",
            `Sign-in links work once, for ${SIGN_IN_LINK_MINUTES} minutes. Ask for a new one on the sign-in page.`,
          );
        }
        log("info", "admin.sign_in", { admin: adminId(admin), by: "link" });
        return seeOther(CONSOLE_PATH, {
          "Set-Cookie": sessionCookie(origin, await sessions.open(identity.ofAddress(admin)), SESSION_HOURS * 3600),
        });
      }
      if (path === CONSOLE_PATHS.signOut) {
        if (cookie) await sessions.end(cookie);
        if (who) log("info", "admin.sign_out", { admin: adminId(who) });
        return seeOther(CONSOLE_PATH, { "Set-Cookie": sessionCookie(origin, "", 0) });
      }
      if (!who) {
        log("warn", "admin.no_session");
        return message(
          401,
          "Please sign in",
          "Your session has ended, or you are not signed in. Sign in again to go on.",
        );
      }
      const slice = deps.waveSlice ?? { ms: WAVE_SLICE_MS };
      if (path === CONSOLE_PATHS.invite && fields["file"] !== undefined) {
        return await waveFile(store, config, who, fields);
      }
      if (path === CONSOLE_PATHS.invite) return await invite({ origin, store, config, admin: who, fields, slice });
      if (path === CONSOLE_PATHS.remove) {
        const email = (fields["email"] ?? "").trim();
        if (email === "" || email.length > LIMITS.email) return message(400, "Remove", "No address was given.", who);
        if (fields["confirm"] !== "yes") return removeConfirmPage(who, email);
        const removed = await withTimeout(store.erase(email), config.dbTimeoutMs);
        log("info", "admin.remove", { admin: adminId(who), removed });
        return seeOther(`${CONSOLE_PATH}?removed=${removed ? 1 : 0}`);
      }
      if (path === CONSOLE_PATHS.export) {
        const asking = { store, config, admin: who, logId: adminId(who), size: deps.partSize };
        return await exportPage(asking, fields["format"] ?? "");
      }
      return message(404, "Not found", "There is nothing here.", who);
    } catch (error) {
      log("error", "admin.failed", describeError(error));
      return message(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
    }
  };
}

/**
 * What the console says at the top while personal data is at risk: sealed rows this deploy cannot open (so every
 * sign-up is refused until DATA_KEY is set), or rows stored as plain text; null once every row is sealed.
 */
export function atRestWarning(config: ServerConfig, sealing: Sealing): string | null {
  const sealedKeys = Object.keys(sealing.sealed);
  if (!config.dataKeys && sealedKeys.length > 0) {
    return `Sign-ups are refused: rows are sealed under key ${sealedKeys.join(", ")}, but DATA_KEY is not set on this deploy. Set DATA_KEY to the key they were sealed with; nothing is stored in clear meanwhile.`;
  }
  if (!config.dataKeys) {
    return "Sign-ups are stored as plain text: anyone with a copy of the database (a preview's branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";
  }
  if (sealing.plain > 0) {
    return `${sealing.plain} sign-up(s) from before DATA_KEY was set are still plain text: run npm run waitlist -- encrypt.`;
  }
  return null;
}

async function dashboard(store: Store, config: ServerConfig, admin: string, url: URL, mail: boolean) {
  const range = url.searchParams.get("range") === "90" ? 90 : 30;
  const position = listPosition(url.searchParams);
  if (!position) {
    return message(
      400,
      "That page doesn't exist",
      `Pages of the list are numbered from 1 to ${MAX_PAGE.toLocaleString("en")}; use the list's own links to go further.`,
      admin,
    );
  }
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, LIMITS.email);
  const list = createConsoleList(store.db, store.dataKeys);
  const load = async () => ({
    counts: await store.countByStatus(),
    days: await store.perDay(range),
    breakdown: await store.breakdown(range, 5),
    page: await list.page(search, position),
    matching: search ? await list.matching(search) : null,
    partSearch: search ? await list.partSearch() : null,
    sealing: await store.sealing(),
    // Notices come from the wave's row, by its id: a number typed into the address shows nothing it did not do.
    notice: (await waveNotice(store, url.searchParams)) ?? removalNotice(url.searchParams),
    files: await pendingFilesSection(store),
  });
  const data = await withTimeout(load(), config.dbTimeoutMs * 2);
  let reason: string | null = null;
  try {
    earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (!(error instanceof InviteConfigError)) throw error;
    reason = "Set EARLY_ACCESS_URL (the product's sign-up page) on the site to let people in from here.";
  }
  const matching = data.matching ?? { count: data.counts.total, capped: false };
  return dashboardPage({
    admin,
    range,
    counts: data.counts,
    days: data.days,
    breakdown: data.breakdown,
    atRest: atRestWarning(config, data.sealing),
    newest: {
      ...data.page,
      ...matching,
      page: position.page,
      search,
      partSearch: data.partSearch,
    },
    invite: { ready: reason === null, reason, mail },
    notice: data.notice,
    files: data.files,
  });
}

interface SignInDeps {
  origin: string;
  context: Context;
  store: Store;
  config: ServerConfig;
  mode: SignInMode;
  /** The console's mailer (the one its handler was given), for the sign-in link. */
  mailer: Mailer | null;
}

async function signIn(
  { origin, context, store, config, mode, mailer }: SignInDeps,
  fields: Record<string, string>,
): Promise<Response> {
  // Counted like sign-ups, per network: each try costs an attempt, so neither tokens nor inboxes can be flooded.
  const window = rateWindow(config);
  const count = await withTimeout(
    rootKey(config, store).then((root) =>
      store.hit(`${SIGN_IN_KEY_PREFIX}${clientKey(context.ip ?? "", root)}`, window, config.rateLimitMax),
    ),
    config.dbTimeoutMs,
  );
  if (!count.allowed) {
    log("warn", "admin.sign_in_rate_limited");
    const wait = secondsUntilAccepted(window, count, config.rateLimitMax);
    const { message: text, headers } = comeBackLater(wait, "Many sign-in attempts have been made");
    return message(429, "Please try again later", text, null, headers);
  }
  if (mode === "token") {
    if (!sameSecret(fields["token"] ?? "", config.adminToken ?? "")) {
      log("warn", "admin.sign_in_denied");
      return signInPage(mode, { error: "That token is not right." }, 401);
    }
    const identity = await adminIdentity(config, store);
    const id = await createSessions(store.db).open(identity.ofToken(config.adminToken ?? ""));
    log("info", "admin.sign_in", { admin: identity.logId("token"), by: "token" });
    return seeOther(CONSOLE_PATH, { "Set-Cookie": sessionCookie(origin, id, SESSION_HOURS * 3600) });
  }
  const email = (fields["email"] ?? "").trim().toLowerCase();
  if (email === "" || email.length > LIMITS.email || !EMAIL_PATTERN.test(email)) {
    return signInPage(mode, { error: "Please enter an e-mail address." }, 400);
  }
  // Every address gets the same answer; only a listed one gets an e-mail, sent after the answer so that not even
  // the time differs, and at most SIGN_IN_MAILS_PER_HOUR of them.
  if (mailer && config.adminEmails.includes(email)) {
    const send = async () => {
      const identity = await adminIdentity(config, store);
      const admin = identity.ofAddress(email);
      try {
        const hour = rateWindow(config, Date.now(), 3600);
        const sent = await store.hit(`${SIGN_IN_MAIL_PREFIX}${admin}`, hour, SIGN_IN_MAILS_PER_HOUR);
        if (!sent.allowed) {
          log("warn", "admin.sign_in_link_limited", { admin: identity.logId(email) });
          return;
        }
        const token = await createSessions(store.db).issueSignIn(admin);
        const link = `${origin}${CONSOLE_PATHS.confirm}?token=${token}`;
        await mailer.send(email, consoleSignInEmail({ signIn: link, site: origin, minutes: SIGN_IN_LINK_MINUTES }));
        log("info", "admin.sign_in_link_sent", { admin: identity.logId(email) });
      } catch (error) {
        log("error", "admin.sign_in_link_failed", describeError(error));
      }
    };
    afterAnswer(context, send());
  }
  return seeOther(`${CONSOLE_PATH}?sent=1`);
}
