/**
 * The two POSTs a person makes about updates:
 *   POST /waitlist/updates?token=…       their choice (updates=yes|no), from their status page (its token)
 *   POST /waitlist/unsubscribe?token=…   stop updates: a mail provider's one-click POST (RFC 8058: the form body
 *                                        `List-Unsubscribe=One-Click`, no cookie, no Origin, no Referer), or the
 *                                        button of the page the update's link opens (GET: that static page)
 *   GET  /waitlist/unsubscribe?token=…   the page that link opens, knowing where its person stands
 *                                        (unsubscribe-page.ts): stopped already → "Send me updates again";
 *                                        `&leave` → asks once, and its POST (action=leave) deletes them
 * A one-click answer is 200 and the same page for a valid, forged or expired token: it tells nobody whether a link
 * was real, and a token that is not the server's changes nothing. A token that is not the server's gets the built
 * page as it is (its button stops nothing); only a real one (its MAC is the server's) shows a person's state.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Context } from "@netlify/functions";
import { ACTION_PAGES } from "../../lib/waitlist/consent";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import type { ServerConfig } from "../config";
import type { ServerDeps } from "../deps";
import { formErrorPage, SITE_HEADERS } from "../http/form-page";
import { isCrossSite } from "../http/origin";
import { mediaType, parseForm, readBody } from "../http/request-body";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import type { Store } from "../store/types";
import { ONE_CLICK, UPDATES_PATHS, UPDATES_WORDS_VERSION } from "./consent";
import { readUnsubscribeToken, updatesKey } from "./message";
import { statusLinkOf } from "./status-token";
import { createUpdateStore } from "./store";
import { leaveBody, stopBody, stoppedBody, UNSUBSCRIBE_LEAVE_PARAM } from "./unsubscribe-page";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** What the record keeps of the unsubscribe page's words, as of the consent's. */
export const UNSUBSCRIBE_PAGE_WORDS = createHash("sha256")
  .update(ACTION_PAGES.unsubscribe.body)
  .digest("hex")
  .slice(0, 16);

/** The slot of the built unsubscribe page that a real link's page fills. */
const SLOT = /(<section id="unsubscribe-body"[^>]*>)[\s\S]*?(<\/section>)/;
const PAGE_HEADERS = { ...SITE_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
/** Where leaving by an update's link lands: the removal link's own notice. */
const LEFT_PAGE = "/waitlist/removed";
/** Where asking for updates again lands (NOTICES.resubscribed). */
const RESUBSCRIBED_PAGE = "/waitlist/resubscribed";

/** A built page, read once per instance (again after a failed read). */
function builtPage(file: URL) {
  let text: Promise<string> | undefined;
  return () => {
    text ??= readFile(file, "utf8");
    text.catch(() => (text = undefined));
    return text;
  };
}

type Named = NonNullable<ReturnType<typeof readUnsubscribeToken>>;

/** One POST as the steps read it: its address and token, its form's fields and raw body, and the settings. */
interface Posted {
  req: Request;
  context: Context;
  url: URL;
  token: string;
  fields: Record<string, string>;
  raw: string;
  config: ServerConfig;
}

const unavailable = (url: URL) =>
  formErrorPage(503, "Please try again", "The waitlist is unavailable right now. Please try again.", {
    back: `${url.pathname}${url.search}`,
  });
const crossSite = () =>
  formErrorPage(403, "Please use the page", "Requests are accepted from this site only.", { back: "/" });

export function createUpdatesHandler(deps: ServerDeps, pages: { unsubscribed: URL; unsubscribe: URL }) {
  const done = builtPage(pages.unsubscribed);
  const donePage = async () => new Response(await done(), { headers: PAGE_HEADERS });
  const unsubscribePage = builtPage(pages.unsubscribe);
  return async (req: Request, context: Context): Promise<Response> => {
    const config = deps.config();
    const url = new URL(req.url);
    const token = url.searchParams.get("token") ?? "";
    if ((req.method === "GET" || req.method === "HEAD") && url.pathname === UPDATES_PATHS.unsubscribe) {
      return unsubscribeGet(deps, unsubscribePage, url, token, req.method === "HEAD");
    }
    if (req.method !== "POST") {
      return new Response("Method not allowed. Use POST.", { status: 405, headers: { Allow: "POST" } });
    }
    const posted: Posted = { req, context, url, token, config, ...(await formOf(req)) };
    try {
      if (url.pathname === UPDATES_PATHS.unsubscribe) return await unsubscribePost(deps, posted, donePage);
      if (url.pathname === UPDATES_PATHS.choose) return await choose(deps, posted);
    } catch (error) {
      log("error", "updates.failed", describeError(error));
      return unavailable(url);
    }
    return formErrorPage(404, "Not found", "There is nothing here.", { back: "/" });
  };
}

/**
 * The form, reading at most 1 KB: a one-click POST is `List-Unsubscribe=One-Click`, form-encoded or (some
 * providers) multipart; the choice's form is one field. Fields only from a form-encoded body, none when unreadable.
 */
async function formOf(req: Request): Promise<{ raw: string; fields: Record<string, string> }> {
  const read = await readBody(req, 1024);
  const raw = "text" in read ? read.text : "";
  try {
    return { raw, fields: mediaType(req) === "application/x-www-form-urlencoded" ? parseForm(raw) : {} };
  } catch {
    return { raw, fields: {} };
  }
}

/** POST /waitlist/unsubscribe: the page's own forms (again, leave), else stop, one-click or the page's button. */
async function unsubscribePost(deps: ServerDeps, posted: Posted, donePage: () => Promise<Response>) {
  const { config, fields, raw, token } = posted;
  const store = await deps.store();
  const named = readUnsubscribeToken(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
  const oneClick = fields["List-Unsubscribe"] === "One-Click" || /List-Unsubscribe(=|"\s+)One-Click/.test(raw);
  const asked = fields["updates"] === "yes" ? "again" : fields["action"] === "leave" ? "leave" : null;
  if (asked && !oneClick) return await pageForm(posted, store, named, asked);
  if (named) {
    const updates = store.of(createUpdateStore);
    const words = oneClick ? ONE_CLICK : UNSUBSCRIBE_PAGE_WORDS;
    const stopped = await withTimeout(updates.unsubscribe(named.update, named.person, words), config.dbTimeoutMs);
    log("info", "updates.unsubscribe", { stopped, oneClick });
    // The page's button: back to the page, which now says they have stopped (and how to undo it).
    if (!oneClick) return seeOther(`${UPDATES_PATHS.unsubscribe}?token=${token}`);
  } else {
    log("warn", "updates.unsubscribe_unknown_token", { oneClick });
  }
  return await donePage();
}

/** The page's own forms: its person asks for updates again, or leaves. From this site only, a real link only. */
async function pageForm(posted: Posted, store: Store, named: Named | null, asked: "again" | "leave") {
  const { config } = posted;
  if (isCrossSite(posted.req, config, posted.context)) return crossSite();
  if (!named) return seeOther("/waitlist/link-invalid");
  const updates = store.of(createUpdateStore);
  if (asked === "again") {
    const again = await withTimeout(
      updates.resubscribe(named.update, named.person, UPDATES_WORDS_VERSION),
      config.dbTimeoutMs,
    );
    log("info", "updates.resubscribe", { again });
    return seeOther(again ? RESUBSCRIBED_PAGE : "/waitlist/link-invalid");
  }
  const left = await withTimeout(updates.leave(named.update, named.person), config.dbTimeoutMs);
  log("info", "updates.leave", { left });
  return seeOther(left ? LEFT_PAGE : "/waitlist/link-invalid");
}

/** POST /waitlist/updates: yes or no from the status page, by a stored status link or the one an update carries. */
async function choose(deps: ServerDeps, posted: Posted) {
  const { config, token } = posted;
  if (isCrossSite(posted.req, config, posted.context)) return crossSite();
  const choice = posted.fields["updates"];
  if (!TOKEN.test(token) || (choice !== "yes" && choice !== "no")) return seeOther("/waitlist/link-invalid");
  const store = await deps.store();
  const updates = store.of(createUpdateStore);
  // A stored status link, or the one an update carries (status-token.ts).
  const link = statusLinkOf(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
  const chosen =
    link !== null &&
    (await withTimeout(updates.choose(link, choice === "yes", UPDATES_WORDS_VERSION), config.dbTimeoutMs));
  log("info", "updates.choice", { chosen, updates: choice });
  return seeOther(chosen ? `${STATUS_PATHS.page}?token=${token}#updates` : "/waitlist/link-invalid");
}

/** The page an update's link opens: the built page, filled for a real link by where its person stands. */
async function unsubscribeGet(deps: ServerDeps, page: () => Promise<string>, url: URL, token: string, head: boolean) {
  const config = deps.config();
  try {
    let html = await page();
    const store = await deps.store();
    const named = readUnsubscribeToken(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
    if (named) {
      const updates = store.of(createUpdateStore);
      const consent = await withTimeout(updates.consentOf(named.person), config.dbTimeoutMs);
      const self = `${url.pathname}?token=${token}`;
      if (consent !== undefined) {
        const body = url.searchParams.has(UNSUBSCRIBE_LEAVE_PARAM)
          ? leaveBody(self)
          : consent === false
            ? stoppedBody(self)
            : stopBody(self);
        html = html.replace(SLOT, (_, open: string, close: string) => `${open}${body}${close}`);
      }
    }
    return new Response(head ? null : html, { headers: { ...PAGE_HEADERS, "Referrer-Policy": "no-referrer" } });
  } catch (error) {
    log("error", "updates.page_failed", describeError(error));
    return unavailable(url);
  }
}
