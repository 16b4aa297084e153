/**
 * Signing in to the console: by an e-mailed link (ADMIN_EMAILS, mail on) or by WAITLIST_ADMIN_TOKEN (mail off), and
 * the session cookie that follows, scoped to /admin, and beside it the cookie that leaves the team's own views out of
 * the visits' count, scoped to /api/visit: the only cookies the site sets, both to the team alone.
 */
import type { Context } from "@netlify/functions";
import { givenAddress } from "../../../lib/waitlist/rules";
import { ACTOR, audit } from "../../audit";
import type { ServerConfig } from "../../config";
import { rootKey } from "../../crypto/secret";
import { sameSecret } from "../../crypto/tokens";
import { readCookie } from "../../http/cookies";
import { clientKey, comeBackLater, rateWindow } from "../../http/rate-limit";
import { afterAnswer, seeOther } from "../../http/responses";
import { withTimeout } from "../../http/timeout";
import { describeError, log } from "../../log";
import type { Mailer } from "../../mail/mailer";
import { consoleSignInEmail } from "../../mail/messages";
import type { Store } from "../../store/types";
import { notCountedCookie } from "../../visits";
import { CONSOLE_PATH, CONSOLE_PATHS, consoleHref, message } from "../pages";
import { adminIdentity } from "./identity";
import { isDeepTarget, RETURN_FIELD, returnTarget } from "./return-to";
import { createSessions, SESSION_HOURS, SIGN_IN_LINK_MINUTES } from "./sessions";
import { type SignInMode, signInPage } from "./sign-in-page";

export const SESSION_COOKIE = "noosphere_console";
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

export function sessionCookie(origin: string, value: string, maxAge: number): string {
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${value}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

/**
 * A sign-in's answer: to the page first asked for (`target`, checked by returnTarget), with the session cookie, and
 * the cookie that keeps this browser's views of the public pages out of the visits' count (scoped to the visit
 * function alone: the session cookie never leaves /admin).
 */
function signedIn(origin: string, session: string, target: string): Response {
  const response = seeOther(target, { "Set-Cookie": sessionCookie(origin, session, SESSION_HOURS * 3600) });
  response.headers.append("Set-Cookie", notCountedCookie(origin));
  return response;
}

/** The console's session cookie as the request carries it ("" without one). */
export const cookieValue = (req: Request): string => readCookie(req, SESSION_COOKIE) ?? "";

export interface SignInDeps {
  origin: string;
  context: Context;
  store: Store;
  config: ServerConfig;
  mode: SignInMode;
  /** The console's mailer (the one its handler was given), for the sign-in link. */
  mailer: Mailer | null;
}

export async function signIn(deps: SignInDeps, fields: Record<string, string>): Promise<Response> {
  const { context, store, config, mode } = deps;
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
    const { message: text, headers } = comeBackLater(count.retryAfter, "Many sign-in attempts have been made");
    return message(429, "Please try again later", text, null, headers);
  }
  const target = returnTarget(fields[RETURN_FIELD]);
  if (mode === "token") return signInByToken(deps, fields["token"] ?? "", target);
  // Lower case after the check: the pattern takes ASCII only, so folding changes no length.
  const email = givenAddress(fields["email"])?.toLowerCase();
  if (email === undefined) {
    return signInPage(mode, { error: "Please enter an e-mail address.", next: target }, 400);
  }
  // Every address gets the same answer; only a listed one gets an e-mail, sent after the answer so that not even
  // the time differs, and at most SIGN_IN_MAILS_PER_HOUR of them.
  const { mailer } = deps;
  if (mailer && config.adminEmails.includes(email)) afterAnswer(context, sendSignInLink(deps, mailer, email, target));
  return seeOther(`${CONSOLE_PATH}?sent=1`);
}

/** With WAITLIST_ADMIN_TOKEN: the token, compared in constant time, opens a session at once. */
async function signInByToken({ origin, store, config, mode }: SignInDeps, token: string, target: string) {
  if (!sameSecret(token, config.adminToken ?? "")) {
    log("warn", "admin.sign_in_denied");
    return signInPage(mode, { error: "That token is not right.", next: target }, 401);
  }
  const identity = await adminIdentity(config, store);
  const id = await store.of(createSessions).open(identity.ofToken(config.adminToken ?? ""));
  log("info", "admin.sign_in", { admin: identity.logId("token"), by: "token" });
  await audit(store.db, ACTOR.adminToken, "sign-in", { by: "token" });
  return signedIn(origin, id, target);
}

/** The sign-in link to a listed admin, at most SIGN_IN_MAILS_PER_HOUR; after the answer, so failures are logged. */
async function sendSignInLink({ origin, store, config }: SignInDeps, mailer: Mailer, email: string, target: string) {
  const identity = await adminIdentity(config, store);
  const admin = identity.ofAddress(email);
  try {
    const hour = rateWindow(config, Date.now(), 3600);
    const sent = await store.hit(`${SIGN_IN_MAIL_PREFIX}${admin}`, hour, SIGN_IN_MAILS_PER_HOUR);
    if (!sent.allowed) {
      log("warn", "admin.sign_in_link_limited", { admin: identity.logId(email) });
      return;
    }
    const token = await store.of(createSessions).issueSignIn(admin);
    // The page first asked for rides in the link, checked again when the link is used (confirmSignIn).
    const next = isDeepTarget(target) ? target : null;
    const link = `${origin}${consoleHref(CONSOLE_PATHS.confirm, { token, [RETURN_FIELD]: next })}`;
    // To the team's own address: the one e-mail that does not pass the suppression list (mail/guard.ts).
    const words = consoleSignInEmail({ signIn: link, site: origin, minutes: SIGN_IN_LINK_MINUTES });
    await mailer.send(email, { ...words, team: true });
    log("info", "admin.sign_in_link_sent", { admin: identity.logId(email) });
  } catch (error) {
    log("error", "admin.sign_in_link_failed", describeError(error));
  }
}

/** The e-mailed link's button: a single-use token for a session, and on to the page the link carries, if safe. */
export async function confirmSignIn({
  url,
  fields,
  store,
  config,
  origin,
  logId,
}: {
  url: URL;
  fields: Record<string, string>;
  store: Store;
  config: ServerConfig;
  origin: string;
  logId: (admin: string) => string;
}): Promise<Response> {
  const sessions = store.of(createSessions);
  const identity = await withTimeout(adminIdentity(config, store), config.dbTimeoutMs);
  const token = url.searchParams.get("token") ?? fields["token"] ?? "";
  const admin = identity.whoIs(await withTimeout(sessions.redeemSignIn(token), config.dbTimeoutMs), false);
  if (!admin) {
    return message(
      400,
      "This link doesn't work",
      `Sign-in links work once, for ${SIGN_IN_LINK_MINUTES} minutes. Ask for a new one on the sign-in page.`,
    );
  }
  log("info", "admin.sign_in", { admin: logId(admin), by: "link" });
  await audit(store.db, admin, "sign-in", { by: "link" });
  const target = returnTarget(url.searchParams.get(RETURN_FIELD));
  return signedIn(origin, await sessions.open(identity.ofAddress(admin)), target);
}
