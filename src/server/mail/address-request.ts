/**
 * A form that asks for an e-mail to be sent to an address (a removal link: links/handler.ts; a status link:
 * referrals/link-handler.ts), answered by one flow: the address checked (givenAddress), mail set up or the
 * team's address given instead, the network's requests counted, then refused past the allowance
 * (countThenRefuse), and the e-mail sent after the answer, so the same page answers, as fast, whether or not the
 * address is listed. Each form brings only its words, its counter and what it sends.
 */
import type { Context } from "@netlify/functions";
import { givenAddress } from "../../lib/waitlist/rules";
import { SITE } from "../../site";
import type { ServerConfig } from "../config";
import { rootKey } from "../crypto/keys";
import type { ServerDeps } from "../deps";
import { siteOrigin } from "../http/origin";
import { countThenRefuse, type RequestCount } from "../http/rate-limit";
import { afterAnswer, seeOther } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import type { Store } from "../store/types";
import { countedMailboxKey } from "./mailbox";
import { type Mailer, mailerFor } from "./mailer";
import type { Recipient } from "./send";

/** What an e-mail sent by such a form is given: the stores, the mailer, and whom it goes to. */
export interface AddressMail {
  store: Store;
  mailer: Mailer;
  to: Recipient;
}

export interface AddressRequest {
  /** The form's requests, counted apart under the sign-ups' allowance. */
  counter: RequestCount;
  /** The form's page for everything but the answer (its way back to the form). */
  page: (status: number, title: string, message: string, headers?: Record<string, string>) => Response;
  /** With mail off: the page's title, and what follows "Write to <the team> from the address you signed up with". */
  mailOff: { title: string; after: string };
  /** The log event when the database fails. */
  failed: string;
  /** The e-mail, sent after the answer. */
  send: (mail: AddressMail) => Promise<unknown>;
  /** Where the answer is told (a notice page), listed or not. */
  answer: string;
}

export async function answerAddressRequest(
  req: Request,
  context: Context,
  given: string | undefined,
  config: ServerConfig,
  deps: ServerDeps,
  request: AddressRequest,
): Promise<Response> {
  const { page } = request;
  const email = givenAddress(given);
  if (email === undefined) {
    return page(400, "Please check the address", "Please enter the e-mail address you signed up with.");
  }
  const mailer = (deps.mailer ?? mailerFor)(config);
  if (!mailer) {
    const write = `Write to ${SITE.contactEmail} from the address you signed up with${request.mailOff.after}.`;
    return page(503, request.mailOff.title, `This site cannot send e-mail yet. ${write}`);
  }
  try {
    const store = await deps.store();
    const root = await withTimeout(rootKey(config, store), config.dbTimeoutMs);
    const refused = await countThenRefuse(store, config, root, context.ip, request.counter);
    if (refused) return page(429, "Please try again later", refused.message, refused.headers);
    const site = siteOrigin(config, context, req);
    const to = { email, site, mailboxKey: countedMailboxKey(root, email) };
    afterAnswer(context, request.send({ store, mailer, to }));
    return seeOther(request.answer);
  } catch (error) {
    log("error", request.failed, describeError(error));
    return page(503, "Please try again", "The waitlist is unavailable right now. Please try again.");
  }
}
