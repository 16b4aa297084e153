/**
 * POST /api/mail-events/resend, /postmark and /ses: what providers say after a message left. The pipeline: the
 * provider's endpoint exists only while its secret is set (else 404; a Postmark password too short to use: 500, the
 * log says why); POST only; the body read (256 KB at most: a provider's event is a few KB); verified before anything
 * is read from it (401 unsigned or wrongly signed, 400 stale or malformed: nothing changes; Postmark's failed
 * attempts limited per network, 429 past them: postmark-guard.ts); then each event recorded once (record.ts) and
 * 200 at once with how many were new. A failure of the database is a 503, which every provider retries.
 */
import type { Context } from "@netlify/functions";
import { databaseKey } from "../crypto/keys";
import type { ServerDeps } from "../deps";
import { readBody } from "../http/request-body";
import { json } from "../http/responses";
import { withTimeout } from "../http/timeout";
import { describeError, log } from "../log";
import { postmarkEvents } from "./postmark";
import { guardPostmark } from "./postmark-guard";
import { recordMailEvent } from "./record";
import { resendEvents, type Verified } from "./resend";
import { snsEvents } from "./ses";

export type MailProvider = "resend" | "postmark" | "ses";
export const MAIL_EVENTS_PATHS: Record<MailProvider, string> = {
  resend: "/api/mail-events/resend",
  postmark: "/api/mail-events/postmark",
  ses: "/api/mail-events/ses",
};
/** Far above any provider's single event (SNS's largest message is 256 KB). */
const MAX_BODY = 256 * 1024;

export interface MailEventsDeps extends ServerDeps {
  /** How the SES endpoint fetches SNS certificates and confirms its subscription (tests: their own, offline). */
  snsFetch?: typeof fetch;
  now?: () => number;
}

export function createMailEventsHandler(deps: MailEventsDeps, provider: MailProvider) {
  return async (req: Request, context?: Context): Promise<Response> => {
    const config = deps.config();
    const { resendWebhookSecret, postmarkWebhook, postmarkWebhookProblem, sesTopicArn } = config.reputation;
    if (provider === "postmark" && postmarkWebhookProblem) {
      // Named in the log (the variable, never its value), not in the answer: the caller may be anyone.
      log("error", "mail_events.postmark_refused", { reason: postmarkWebhookProblem });
      return json(500, { error: "This endpoint is not set up correctly: the server's log says why." });
    }
    const on = { resend: resendWebhookSecret, postmark: postmarkWebhook, ses: sesTopicArn }[provider];
    if (!on) return json(404, { error: "Not found." });
    if (req.method !== "POST") return json(405, { error: "Method not allowed. Use POST." }, { Allow: "POST" });
    const read = await readBody(req, MAX_BODY);
    if ("status" in read) return json(read.status, { error: read.message });
    if (provider === "postmark" && postmarkWebhook) {
      const now = (deps.now ?? Date.now)();
      const refused = await guardPostmark(req, context, {
        credentials: postmarkWebhook,
        config,
        store: deps.store,
        now,
      });
      if (refused) return refused;
    }

    let verified: Verified;
    if (provider === "resend") verified = resendEvents(resendWebhookSecret ?? "", req.headers, read.text);
    else if (provider === "postmark" && postmarkWebhook)
      verified = postmarkEvents(postmarkWebhook, req.headers, read.text);
    else {
      verified = await snsEvents(
        {
          topicArn: sesTopicArn ?? "",
          ...(deps.snsFetch ? { fetch: deps.snsFetch } : {}),
          ...(deps.now ? { now: deps.now } : {}),
        },
        read.text,
      );
    }
    if ("status" in verified) {
      log("warn", "mail_events.refused", { provider, status: verified.status, error: verified.error });
      return json(verified.status, { error: verified.error });
    }
    try {
      const store = await withTimeout(deps.store(), config.dbTimeoutMs);
      const database = await withTimeout(databaseKey(store), config.dbTimeoutMs);
      const counts = { recorded: 0, duplicate: 0, unknown: 0 };
      for (const event of verified.events) {
        counts[await withTimeout(recordMailEvent({ db: store.db, database, config }, event), config.dbTimeoutMs)]++;
      }
      log("info", "mail_events.received", { provider, ...counts });
      return json(200, { ok: true, ...counts });
    } catch (error) {
      log("error", "mail_events.failed", { provider, ...describeError(error) });
      return json(503, { error: "Not recorded now: send it again later." }, { "Retry-After": "60" });
    }
  };
}
