/**
 * The two POSTs a person makes about updates:
 *   POST /waitlist/updates?token=…       their choice (updates=yes|no), from their status page (its token)
 *   POST /waitlist/unsubscribe?token=…   stop updates: a mail provider's one-click POST (RFC 8058: the form body
 *                                        `List-Unsubscribe=One-Click`, no cookie, no Origin, no Referer), or the
 *                                        button of the page the update's link opens (GET: that static page)
 * The unsubscribe answer is 200 and the same page for a valid, forged or expired token: it tells nobody whether a
 * link was real, and a token that is not the server's changes nothing.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Context } from "@netlify/functions";
import { ACTION_PAGES } from "../../lib/waitlist/consent";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import type { ServerDeps } from "../deps";
import { formErrorPage, SITE_HEADERS } from "../http/form-page";
import { isCrossSite } from "../http/origin";
import { mediaType, parseForm, readBody } from "../http/request-body";
import { seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { hashToken } from "../tokens";
import { ONE_CLICK, UPDATES_PATHS, UPDATES_WORDS_VERSION } from "./consent";
import { readUnsubscribeToken, updatesKey } from "./message";
import { createUpdateStore } from "./store";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** What the record keeps of the unsubscribe page's words, as of the consent's. */
export const UNSUBSCRIBE_PAGE_WORDS = createHash("sha256")
  .update(ACTION_PAGES.unsubscribe.body)
  .digest("hex")
  .slice(0, 16);

export function createUpdatesHandler(deps: ServerDeps, pages: { unsubscribed: URL }) {
  let done: Promise<string> | undefined;
  const donePage = async () => {
    done ??= readFile(pages.unsubscribed, "utf8");
    done.catch(() => (done = undefined));
    return new Response(await done, {
      headers: { ...SITE_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    });
  };
  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "POST") {
      return new Response("Method not allowed. Use POST.", { status: 405, headers: { Allow: "POST" } });
    }
    const config = deps.config();
    const url = new URL(req.url);
    const token = url.searchParams.get("token") ?? "";
    // At most 1 KB is read: a one-click POST is `List-Unsubscribe=One-Click`, form-encoded or (some providers)
    // multipart; the choice's form is one field.
    const read = await readBody(req, 1024);
    const raw = "text" in read ? read.text : "";
    let fields: Record<string, string> = {};
    try {
      fields = mediaType(req) === "application/x-www-form-urlencoded" ? parseForm(raw) : {};
    } catch {
      fields = {};
    }
    try {
      if (url.pathname === UPDATES_PATHS.unsubscribe) {
        const store = await deps.store();
        const named = readUnsubscribeToken(await withTimeout(updatesKey(store), config.dbTimeoutMs), token);
        const oneClick = fields["List-Unsubscribe"] === "One-Click" || /List-Unsubscribe(=|"\s+)One-Click/.test(raw);
        if (named) {
          const updates = createUpdateStore(store.db, store.dataKeys);
          const words = oneClick ? ONE_CLICK : UNSUBSCRIBE_PAGE_WORDS;
          const stopped = await withTimeout(updates.unsubscribe(named.update, named.person, words), config.dbTimeoutMs);
          log("info", "updates.unsubscribe", { stopped, oneClick });
        } else {
          log("warn", "updates.unsubscribe_unknown_token", { oneClick });
        }
        return await donePage();
      }
      if (url.pathname === UPDATES_PATHS.choose) {
        if (isCrossSite(req, config, context)) {
          return formErrorPage(403, "Please use the page", "Requests are accepted from this site only.", {
            back: "/",
          });
        }
        const choice = fields["updates"];
        if (!TOKEN.test(token) || (choice !== "yes" && choice !== "no")) return seeOther("/waitlist/link-invalid");
        const store = await deps.store();
        const updates = createUpdateStore(store.db, store.dataKeys);
        const chosen = await withTimeout(
          updates.choose(hashToken(token), choice === "yes", UPDATES_WORDS_VERSION),
          config.dbTimeoutMs,
        );
        log("info", "updates.choice", { chosen, updates: choice });
        return seeOther(chosen ? `${STATUS_PATHS.page}?token=${token}#updates` : "/waitlist/link-invalid");
      }
    } catch (error) {
      log("error", "updates.failed", describeError(error));
      return formErrorPage(503, "Please try again", "The waitlist is unavailable right now. Please try again.", {
        back: `${url.pathname}${url.search}`,
      });
    }
    return formErrorPage(404, "Not found", "There is nothing here.", { back: "/" });
  };
}
