/**
 * The operators' console at /admin (pages in pages.ts, sessions in sessions.ts), for the people in ADMIN_EMAILS
 * (signing in by an e-mailed link) or, with mail off, whoever has WAITLIST_ADMIN_TOKEN. One pipeline per request:
 * sign-in available → method → origin (every POST from the console's own origin) → session → form → action →
 * answer. Its session cookie is the only cookie the site sets, scoped to /admin, so no public page ever carries it.
 */
import { createHash } from "node:crypto";
import type { Context } from "@netlify/functions";
import { EMAIL_PATTERN, LIMITS } from "../../lib/waitlist/rules";
import { sameSecret } from "../bearer";
import type { ServerConfig } from "../config";
import { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, openExport } from "../export";
import { earlyAccessBase, InviteConfigError, previewWave, runWave, waveOwner } from "../invitations";
import { describeError, log } from "../log";
import { createSmtpMailer, mailerFor } from "../mail/mailer";
import { consoleSignInEmail } from "../mail/messages";
import { siteOrigin } from "../origin";
import { clientKey, comeBackLater, rateWindow, secondsUntilAccepted } from "../rate-limit";
import { readFormFields } from "../request-body";
import { afterAnswer, attachment } from "../responses";
import { rootKey } from "../secret";
import type { Store } from "../store";
import { withTimeout } from "../timeout";
import type { WaitlistDeps } from "../waitlist-handler";
import {
  CONSOLE_PATH,
  CONSOLE_PATHS,
  confirmSignInPage,
  dashboardPage,
  invitePreviewPage,
  message,
  offPage,
  removeConfirmPage,
  type SignInMode,
  signInPage,
} from "./pages";
import { createSessions, SESSION_HOURS, SIGN_IN_LINK_MINUTES } from "./sessions";

export const SESSION_COOKIE = "noosphere_console";
/** A wave from the console runs inside one function call; larger ones belong to the CLI. */
export const CONSOLE_WAVE_MAX = 500;
const PER_PAGE = 25;
const MAX_BODY = 4 * 1024;
const SIGN_IN_KEY_PREFIX = "admin:";

/** How people sign in here: by e-mailed link (mail on and ADMIN_EMAILS set), by token (mail off), or not at all. */
export function signInMode(config: ServerConfig, mail: boolean): SignInMode | null {
  if (mail && config.adminEmails.length > 0) return "email";
  if (!mail && config.adminToken) return "token";
  return null;
}

/** Logs name an admin by a short hash of their address, never the address. */
const adminId = (admin: string) => createHash("sha256").update(admin).digest("hex").slice(0, 16);

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

const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", ...headers } });

async function readFields(req: Request): Promise<Record<string, string> | Response> {
  const read = await readFormFields(req, MAX_BODY);
  return "fields" in read ? read.fields : message(read.status, "Please use the form", read.message);
}

/** What the dashboard says after an action (its 303 carries counts, never an address). */
function noticeOf(params: URLSearchParams): string | null {
  if (params.has("invited")) {
    const invited = Number(params.get("invited"));
    const refused = Number(params.get("refused") ?? 0);
    const parts = [`Invited ${invited} ${invited === 1 ? "person" : "people"}.`];
    if (refused > 0) parts.push(`${refused} e-mail${refused === 1 ? " was" : "s were"} refused: they stay confirmed.`);
    if (params.has("stopped"))
      parts.push("The SMTP server could not be used, so the wave stopped early: invite again to go on.");
    return parts.join(" ");
  }
  if (params.get("removed") === "1") return "Removed: the address, everything it sent and its links are deleted.";
  if (params.get("removed") === "0") return "That address is not on the list (it may have been removed already).";
  return null;
}

export function createConsoleHandler(deps: WaitlistDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    const config = deps.config();
    const mailer = (deps.mailer ?? mailerFor)(config);
    const mode = signInMode(config, mailer !== null);
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
      const cookie = cookieValue(req);
      const admin = cookie ? await withTimeout(sessions.find(cookie), config.dbTimeoutMs) : null;
      // An address taken off ADMIN_EMAILS loses its sessions at once.
      const allowed = admin !== null && (admin === "token" ? mode === "token" : config.adminEmails.includes(admin));
      const who = allowed ? admin : null;

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
        return dashboard(store, config, who, url, mailer !== null);
      }
      if (isGet && path === CONSOLE_PATHS.confirm) return confirmSignInPage(`${url.pathname}${url.search}`);
      if (isGet) return message(404, "Not found", "There is nothing here.");

      const fields = await readFields(req);
      if (fields instanceof Response) return fields;

      if (path === CONSOLE_PATHS.signIn) return signIn(origin, context, store, config, mode, fields);
      if (path === CONSOLE_PATHS.confirm) {
        const token = url.searchParams.get("token") ?? fields["token"] ?? "";
        const admin = await sessions.redeemSignIn(token);
        if (!admin || !config.adminEmails.includes(admin)) {
          return message(
            400,
            "This link doesn't work",
            `Sign-in links work once, for ${SIGN_IN_LINK_MINUTES} minutes. Ask for a new one on the sign-in page.`,
          );
        }
        log("info", "admin.sign_in", { admin: adminId(admin), by: "link" });
        return seeOther(CONSOLE_PATH, {
          "Set-Cookie": sessionCookie(origin, await sessions.open(admin), SESSION_HOURS * 3600),
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
      if (path === CONSOLE_PATHS.invite) return invite(origin, store, config, who, fields);
      if (path === CONSOLE_PATHS.remove) {
        const email = (fields["email"] ?? "").trim();
        if (email === "" || email.length > LIMITS.email) return message(400, "Remove", "No address was given.", who);
        if (fields["confirm"] !== "yes") return removeConfirmPage(who, email);
        const removed = await withTimeout(store.erase(email), config.dbTimeoutMs);
        log("info", "admin.remove", { admin: adminId(who), removed });
        return seeOther(`${CONSOLE_PATH}?removed=${removed ? 1 : 0}`);
      }
      if (path === CONSOLE_PATHS.export) {
        const asked = fields["format"] as ExportFormat;
        const format = EXPORT_FORMATS.includes(asked) ? asked : "csv";
        const { type, extension } = EXPORT_TYPES[format];
        const body = await openExport(store, format, { timeoutMs: config.dbTimeoutMs }, ({ rows, error }) =>
          log(error ? "error" : "info", "admin.export", { admin: adminId(who), format, rows }),
        );
        return attachment(body, type, "waitlist", extension);
      }
      return message(404, "Not found", "There is nothing here.", who);
    } catch (error) {
      log("error", "admin.failed", describeError(error));
      return message(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
    }
  };
}

/** What the console says while personal data is stored as plain text; null once every row is sealed. */
export function atRestWarning(config: ServerConfig, plainRows: number): string | null {
  if (!config.dataKeys) {
    return "Sign-ups are stored as plain text: anyone with a copy of the database (a preview's branch, a backup) can read them. Set DATA_KEY (openssl rand -base64 32) in the Production context, then run npm run waitlist -- encrypt.";
  }
  if (plainRows > 0) {
    return `${plainRows} sign-up(s) from before DATA_KEY was set are still plain text: run npm run waitlist -- encrypt.`;
  }
  return null;
}

async function dashboard(store: Store, config: ServerConfig, admin: string, url: URL, mail: boolean) {
  const range = url.searchParams.get("range") === "90" ? 90 : 30;
  const at = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, LIMITS.email);
  const load = async () => ({
    counts: await store.countByStatus(),
    days: await store.perDay(range),
    breakdown: await store.breakdown(range, 5),
    newest: await store.newest(PER_PAGE, (at - 1) * PER_PAGE, search),
    sealing: await store.sealing(),
  });
  const data = await withTimeout(load(), config.dbTimeoutMs * 2);
  let reason: string | null = null;
  try {
    earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (!(error instanceof InviteConfigError)) throw error;
    reason = "Set EARLY_ACCESS_URL (the product's sign-up page) on the site to let people in from here.";
  }
  const { sealing, ...shown } = data;
  return dashboardPage({
    admin,
    range,
    ...shown,
    atRest: atRestWarning(config, sealing.plain),
    newest: { ...data.newest, page: at, perPage: PER_PAGE, search },
    invite: { ready: reason === null, reason, mail },
    notice: noticeOf(url.searchParams),
  });
}

async function signIn(
  origin: string,
  context: Context,
  store: Store,
  config: ServerConfig,
  mode: SignInMode,
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
    const sessions = createSessions(store.db);
    log("info", "admin.sign_in", { admin: adminId("token"), by: "token" });
    return seeOther(CONSOLE_PATH, {
      "Set-Cookie": sessionCookie(origin, await sessions.open("token"), SESSION_HOURS * 3600),
    });
  }
  const email = (fields["email"] ?? "").trim().toLowerCase();
  if (email === "" || email.length > LIMITS.email || !EMAIL_PATTERN.test(email)) {
    return signInPage(mode, { error: "Please enter an e-mail address." }, 400);
  }
  // Every address gets the same answer; only a listed one gets an e-mail, sent after the answer so that not even
  // the time differs.
  const mail = config.mail;
  if (mail && config.adminEmails.includes(email)) {
    const site = origin;
    const send = async () => {
      try {
        const token = await createSessions(store.db).issueSignIn(email);
        await createSmtpMailer(mail).send(
          email,
          consoleSignInEmail({
            signIn: `${site}${CONSOLE_PATHS.confirm}?token=${token}`,
            site,
            minutes: SIGN_IN_LINK_MINUTES,
          }),
        );
        log("info", "admin.sign_in_link_sent", { admin: adminId(email) });
      } catch (error) {
        log("error", "admin.sign_in_link_failed", describeError(error));
      }
    };
    afterAnswer(context, send());
  }
  return seeOther(`${CONSOLE_PATH}?sent=1`);
}

async function invite(
  origin: string,
  store: Store,
  config: ServerConfig,
  admin: string,
  fields: Record<string, string>,
): Promise<Response> {
  const next = /^\d{1,4}$/.test(fields["next"] ?? "") ? Number(fields["next"]) : 0;
  if (next < 1 || next > CONSOLE_WAVE_MAX) {
    return message(
      400,
      "Let people in",
      `Choose how many to invite, from 1 to ${CONSOLE_WAVE_MAX} (larger waves: npm run waitlist -- invite).`,
      admin,
    );
  }
  let base: URL;
  try {
    base = earlyAccessBase(config.earlyAccessUrl);
  } catch (error) {
    if (error instanceof InviteConfigError) return message(400, "Let people in", error.message, admin);
    throw error;
  }
  if (fields["confirm"] !== "yes") {
    return invitePreviewPage(admin, await previewWave(store, next), next, config.mail !== null);
  }
  const mailer = config.mail ? createSmtpMailer(config.mail, { pool: true }) : null;
  let csv = "email,name,invite_url\r\n";
  const report = await runWave({
    store,
    next,
    delivery: mailer
      ? { kind: "mail", mailer }
      : {
          kind: "csv",
          write: async (text) => {
            csv += text;
          },
        },
    accessUrl: base,
    siteUrl: origin,
    ttlDays: config.inviteTtlDays,
    owner: waveOwner("console"),
  });
  mailer?.close();
  log("info", "admin.invite", { admin: adminId(admin), invited: report.invited, refused: report.refused });
  if (!mailer) {
    return attachment(csv, "text/csv", "invitations", "csv");
  }
  const stopped = report.stopped ? "&stopped=1" : "";
  return seeOther(`${CONSOLE_PATH}?invited=${report.invited + report.inDoubt}&refused=${report.refused}${stopped}`);
}
