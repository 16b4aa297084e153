/**
 * The POSTs behind the pages an e-mail's links open (GET shows a page with one button; mail scanners that
 * follow links change nothing), and the request for a removal link by address:
 *   POST /waitlist/confirm?token=…   confirms a pending sign-up
 *   POST /waitlist/leave?token=…     deletes a sign-up (the row, not a flag)
 *   POST /waitlist/remove            e-mails a removal link to a listed address; the same answer either way
 * Each answers with a 303 to a static page saying what happened, or a small page for what went wrong.
 */
import type { Context } from "@netlify/functions";
import { LINK_PATHS, type NOTICES } from "../../lib/waitlist/consent";
import { CONFIRMED_PARAM, STATUS_PATHS } from "../../lib/waitlist/referral";
import type { ServerConfig } from "../config";
import { rootKey } from "../crypto/keys";
import { hashToken, newToken } from "../crypto/tokens";
import type { ServerDeps } from "../deps";
import { type FormErrorOptions, formErrorPage } from "../http/form-page";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite, siteOrigin } from "../http/origin";
import type { RequestCount } from "../http/rate-limit";
import { mediaType, readFormFields } from "../http/request-body";
import { afterAnswer, seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { answerAddressRequest } from "../mail/address-request";
import { countedMailboxKey } from "../mail/mailbox";
import { mailerFor } from "../mail/mailer";
import { sendRemovalLink, sendStatusEmail } from "../mail/send";
import { guardedDeps, suppressedMailer } from "../suppression";
import { settleThrowawayReferral } from "./throwaway";

/** Where each outcome is told: the static pages of NOTICES (src/pages/waitlist/[...notice].astro). */
const notice = (key: keyof typeof NOTICES) => `/waitlist/${key}`;
export const OUTCOME_PAGES = {
  confirmed: notice("confirmed"),
  "already-confirmed": notice("already-confirmed"),
  "already-invited": notice("already-invited"),
  "already-joined": notice("already-joined"),
  removed: notice("removed"),
  expired: notice("link-expired"),
  invalid: notice("link-invalid"),
  "removal-requested": notice("remove/sent"),
} as const;
const REMOVE_REQUEST_PATH: string = LINK_PATHS.request;

const FORM_TYPE = "application/x-www-form-urlencoded";
/** Removal requests, counted apart from sign-ups under the same allowance. */
const REMOVAL_REQUESTS: RequestCount = {
  prefix: "remove:",
  event: "waitlist.removal_rate_limited",
  what: "Many removal links have been asked for",
};

/** This function's form pages lead back to the removal form unless said otherwise. */
const page = (status: number, title: string, message: string, options: FormErrorOptions = {}) =>
  formErrorPage(status, title, message, { back: REMOVE_REQUEST_PATH, ...options });

/** The form's fields, or a Response saying why there are none. */
async function readForm(
  req: Request,
  config: ServerConfig,
  context: Context,
): Promise<Record<string, string> | Response> {
  const type = mediaType(req);
  if (type !== undefined && type !== FORM_TYPE) {
    return page(415, "Please use the form", `Content-Type must be ${FORM_TYPE}.`);
  }
  if (isCrossSite(req, config, context))
    return page(403, "Please use the form", "Requests are accepted from this site only.");
  const read = await readFormFields(req, BODY_LIMITS.form);
  return "fields" in read ? read.fields : page(read.status, "Please use the form", read.message);
}

export function createLinksHandler(deps: ServerDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "POST") {
      return new Response("Method not allowed. Use POST.", { status: 405, headers: { Allow: "POST" } });
    }
    const config = deps.config();
    const fields = await readForm(req, config, context);
    if (fields instanceof Response) return fields;
    const url = new URL(req.url);

    if (url.pathname === REMOVE_REQUEST_PATH) return requestRemoval(req, context, fields, config, deps);

    // A link's token arrives in the page's address (the form posts back to it) or, if a client moved it, the body.
    const token = url.searchParams.get("token") ?? fields["token"] ?? "";
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return seeOther(OUTCOME_PAGES.invalid);
    try {
      const store = await deps.store();
      if (url.pathname === LINK_PATHS.confirm) {
        // Confirming makes the person's status link: the confirmation leads to their page, and an e-mail keeps it.
        const status = newToken();
        const options = { statusHash: status.hash, referralsPerDay: config.referralsPerDay };
        const hash = hashToken(token);
        const { outcome, email, referral } = await withTimeout(
          settleThrowawayReferral(store, hash).then(() => store.consent.confirm(hash, options)),
          config.dbTimeoutMs,
        );
        log("info", "waitlist.confirm", { outcome, referral: referral ?? null });
        if (outcome !== "confirmed" || !email) return seeOther(OUTCOME_PAGES[outcome]);
        const mailer = suppressedMailer((deps.mailer ?? mailerFor)(config), config, deps.store);
        if (mailer) {
          const root = await withTimeout(rootKey(config, store), config.dbTimeoutMs);
          const to = { email, site: siteOrigin(config, context, req), mailboxKey: countedMailboxKey(root, email) };
          afterAnswer(context, sendStatusEmail(store.consent, mailer, to, status.token));
        }
        return seeOther(`${STATUS_PATHS.page}?token=${status.token}&${CONFIRMED_PARAM}`);
      }
      if (url.pathname === LINK_PATHS.remove) {
        const outcome = await withTimeout(store.consent.remove(hashToken(token)), config.dbTimeoutMs);
        log("info", "waitlist.remove", { outcome });
        return seeOther(OUTCOME_PAGES[outcome]);
      }
    } catch (error) {
      log("error", "waitlist.link_failed", describeError(error));
      return page(503, "Please try again", "The waitlist is unavailable right now. Please try again.", {
        back: url.href,
      });
    }
    return page(404, "Not found", "There is nothing here.", { back: "/" });
  };
}

/**
 * POST /waitlist/remove: e-mails a removal link when the address is listed, and answers the same page either
 * way (the e-mail goes after the answer, so not even the time differs). Counted like sign-ups: each network
 * has RATE_LIMIT_MAX requests per window; a mistyped address counts nothing.
 */
async function requestRemoval(
  req: Request,
  context: Context,
  fields: Record<string, string>,
  config: ServerConfig,
  deps: ServerDeps,
): Promise<Response> {
  return answerAddressRequest(req, context, fields["email"], config, guardedDeps(deps), {
    counter: REMOVAL_REQUESTS,
    page: (status, title, message, headers = {}) => page(status, title, message, { headers }),
    mailOff: { title: "Removal by e-mail is not set up", after: ", and we will remove it" },
    failed: "waitlist.removal_request_failed",
    send: ({ store, mailer, to }) => sendRemovalLink(store.consent, mailer, to),
    answer: OUTCOME_PAGES["removal-requested"],
  });
}
