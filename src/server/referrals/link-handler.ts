/**
 * POST /waitlist/link, the "send me my link again" form (src/pages/waitlist/link.astro): e-mails a listed,
 * confirmed address a new link to its status page, and answers the same page either way (the e-mail goes after
 * the answer, so not even the time differs). A pending address is sent its confirmation again instead: confirming
 * is what gives it a place. Limited as the other requests by address are: RATE_LIMIT_MAX per network and window,
 * one e-mail per address and kind every 10 minutes, and the mailbox's e-mails a day (mail/send.ts).
 */
import type { Context } from "@netlify/functions";
import { STATUS_PATHS } from "../../lib/waitlist/referral";
import type { ServerDeps } from "../deps";
import { formErrorPage } from "../http/form-page";
import { BODY_LIMITS } from "../http/limits";
import { isCrossSite } from "../http/origin";
import type { RequestCount } from "../http/rate-limit";
import { mediaType, readFormFields } from "../http/request-body";
import { answerAddressRequest } from "../mail/address-request";
import { sendConfirmation, sendStatusLink } from "../mail/send";
import { guardedDeps } from "../suppression";

/** Where the answer is told (a notice page: src/lib/waitlist/consent.ts NOTICES). */
export const LINK_SENT_PAGE = "/waitlist/link/sent";
/** Status-link requests, counted apart from sign-ups and removals under the same allowance. */
const LINK_REQUESTS: RequestCount = {
  prefix: "status:",
  event: "waitlist.status_link_rate_limited",
  what: "Many links have been asked for",
};
const FORM_TYPE = "application/x-www-form-urlencoded";

const page = (status: number, title: string, message: string, headers: Record<string, string> = {}) =>
  formErrorPage(status, title, message, { back: STATUS_PATHS.request, headers });

export function createStatusLinkHandler(deps: ServerDeps) {
  return async (req: Request, context: Context): Promise<Response> => {
    if (req.method !== "POST") {
      return new Response("Method not allowed. Use POST.", { status: 405, headers: { Allow: "POST" } });
    }
    const config = deps.config();
    const type = mediaType(req);
    if (type !== undefined && type !== FORM_TYPE) {
      return page(415, "Please use the form", `Content-Type must be ${FORM_TYPE}.`);
    }
    if (isCrossSite(req, config, context)) {
      return page(403, "Please use the form", "Requests are accepted from this site only.");
    }
    const read = await readFormFields(req, BODY_LIMITS.form);
    if (!("fields" in read)) return page(read.status, "Please use the form", read.message);
    return answerAddressRequest(req, context, read.fields["email"], config, guardedDeps(deps), {
      counter: LINK_REQUESTS,
      page,
      mailOff: { title: "Links by e-mail are not set up", after: "" },
      failed: "waitlist.status_link_failed",
      send: ({ store, mailer, to }) =>
        sendStatusLink(store.consent, store.referrals, mailer, to).then(() =>
          // Not confirmed yet (nothing issued above): the confirmation is what such an address needs.
          sendConfirmation(store.consent, mailer, to),
        ),
      answer: LINK_SENT_PAGE,
    });
  };
}
